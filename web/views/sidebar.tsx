/** Projects and their conversations: create, open an existing folder, rename, delete. */
import { useState } from "preact/hooks";
import { AskDialog, type Ask } from "../components/ask-dialog.tsx";
import { CloseIcon, PencilIcon, TrashIcon } from "../components/icons.tsx";
import type { WorkspaceModel } from "../state/workspace.ts";

function NewProjectForm({ workspace, onDone }: { workspace: WorkspaceModel; onDone: (created: boolean) => void }) {
  const [name, setName] = useState("");
  const [path, setPath] = useState("");
  return (
    <form
      class="new-project"
      data-testid="new-project-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const trimmedPath = path.trim();
        const projectName = name.trim() || trimmedPath.split(/[\\/]/).filter(Boolean).pop() || "";
        if (!projectName) return;
        if (await workspace.createProject(projectName, trimmedPath || undefined)) onDone(true);
      }}
    >
      <input data-testid="project-name" placeholder="Project name" value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      <input
        data-testid="project-path"
        placeholder="Existing folder (absolute path, ssh://host/path or docker://container/path), or leave empty for a new one"
        title="A folder here, on another machine over ssh (ssh://[user@]host[:port]/absolute/path) or in a running container (docker://CONTAINER/absolute/path)"
        value={path}
        onInput={(e) => setPath((e.currentTarget as HTMLInputElement).value)}
      />
      <div class="row">
        <button type="submit" class="primary small" data-testid="create-project">
          {path.trim() ? "Open folder" : "Create"}
        </button>
        <button type="button" class="ghost small" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** `onNavigate`: a project or conversation was opened (closes the sidebar when it is a drawer). */
export function Sidebar({ workspace, onNavigate }: { workspace: WorkspaceModel; onNavigate?: () => void }) {
  const [adding, setAdding] = useState(false);
  const [ask, setAsk] = useState<Ask | null>(null);
  const projectId = workspace.projectId.value;
  const rename = (title: string, current: string, apply: (value: string) => void) => setAsk({ kind: "rename", title, label: "New name", value: current, onDone: apply });
  const remove = (title: string, message: string, confirmLabel: string, apply: () => void) => setAsk({ kind: "confirm", title, message, confirmLabel, onDone: apply });
  return (
    <aside class="sidebar" aria-label="Projects" data-testid="sidebar">
      <div class="sidebar-head">
        <h2>Projects</h2>
        <button type="button" class="ghost small" data-testid="new-project" onClick={() => setAdding(!adding)}>
          + New
        </button>
        <button type="button" class="icon drawer-close" aria-label="Close projects" onClick={onNavigate}>
          <CloseIcon />
        </button>
      </div>
      {adding && (
        <NewProjectForm
          workspace={workspace}
          onDone={(created) => {
            setAdding(false);
            if (created) onNavigate?.();
          }}
        />
      )}
      {workspace.loaded.value && workspace.projects.value.length === 0 && !adding && <p class="empty">No projects yet. Your first prompt starts one; or create one here, or open a folder you already have.</p>}
      <ul class="project-list">
        {workspace.projects.value.map((project) => (
          <li key={project.id} class={project.id === projectId ? "selected" : ""} data-testid="project-item" data-project-id={project.id}>
            <div class="item-row">
              <button
                type="button"
                class="item-title"
                title={project.path}
                onClick={() => {
                  void workspace.open(project.id);
                  onNavigate?.();
                }}
              >
                {project.name}
              </button>
              <button
                type="button"
                class="icon"
                title="Rename project"
                aria-label={`Rename project ${project.name}`}
                data-testid="rename-project"
                onClick={() => rename("Rename project", project.name, (name) => void workspace.renameProject(project.id, name))}
              >
                <PencilIcon />
              </button>
              <button
                type="button"
                class="icon"
                title="Remove project (the folder stays on disk)"
                aria-label={`Remove project ${project.name}`}
                data-testid="remove-project"
                onClick={() => remove("Remove project", `Remove “${project.name}” from od? The folder stays on disk.`, "Remove", () => void workspace.deleteProject(project.id))}
              >
                <TrashIcon />
              </button>
            </div>
            {project.id === projectId && (
              <ul class="conversation-list">
                <li>
                  <button
                    type="button"
                    class="ghost small"
                    data-testid="new-conversation"
                    onClick={() => {
                      workspace.openConversation(null);
                      onNavigate?.();
                    }}
                  >
                    + New conversation
                  </button>
                </li>
                {(workspace.conversations.value[project.id] ?? []).map((c) => (
                  <li key={c.id} class={c.id === workspace.conversationId.value ? "selected" : ""} data-testid="conversation-item" data-conversation-id={c.id}>
                    <div class="item-row">
                      <button
                        type="button"
                        class="item-title"
                        onClick={() => {
                          workspace.openConversation(c.id);
                          onNavigate?.();
                        }}
                      >
                        {c.title || "Untitled"}
                      </button>
                      <button
                        type="button"
                        class="icon"
                        title="Rename"
                        aria-label={`Rename conversation ${c.title || "Untitled"}`}
                        data-testid="rename-conversation"
                        onClick={() => rename("Rename conversation", c.title, (title) => void workspace.renameConversation(c.id, title))}
                      >
                        <PencilIcon />
                      </button>
                      <button
                        type="button"
                        class="icon"
                        title="Delete"
                        aria-label={`Delete conversation ${c.title || "Untitled"}`}
                        data-testid="delete-conversation"
                        onClick={() => remove("Delete conversation", `Delete “${c.title || "Untitled"}”? Its messages and runs go with it.`, "Delete", () => void workspace.deleteConversation(c.id))}
                      >
                        <TrashIcon />
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      {workspace.error.value && <p class="error">{workspace.error.value}</p>}
      <AskDialog ask={ask} onClose={() => setAsk(null)} />
    </aside>
  );
}
