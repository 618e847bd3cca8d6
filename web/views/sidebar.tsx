/** Projects and their conversations: create, open an existing folder, rename, delete. */
import { useState } from "preact/hooks";
import { AskDialog, type Ask } from "../components/ask-dialog.tsx";
import { CloseIcon, PencilIcon, TrashIcon } from "../components/icons.tsx";
import { ShowMore, useNewestPage } from "../components/show-more.tsx";
import type { FolderPicker } from "../state/folder-picker.ts";
import type { WorkspaceModel } from "../state/workspace.ts";

/**
 * A new project: a name and a folder, each labelled; Browse opens a folder picker on this machine (or the machine a
 * ssh:// or docker:// URL names). Typing clears the last error the daemon gave.
 */
function NewProjectForm({ workspace, folderPicker, onDone }: { workspace: WorkspaceModel; folderPicker: FolderPicker; onDone: (created: boolean) => void }) {
  const [name, setName] = useState("");
  const [path, setPath] = useState("");
  const typed = (set: (value: string) => void) => (e: Event) => {
    set((e.currentTarget as HTMLInputElement).value);
    if (workspace.error.peek()) workspace.clearError();
  };
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
      <label class="field" for="new-project-name">
        <span>Name</span>
        <input id="new-project-name" data-testid="project-name" placeholder="My site" value={name} onInput={typed(setName)} />
      </label>
      <label class="field" for="new-project-path">
        <span>Folder (empty: a new one)</span>
        <span class="row">
          <input
            id="new-project-path"
            data-testid="project-path"
            placeholder="/path, ssh://host/path or docker://container/path"
            title="A folder here, on another machine over ssh (ssh://[user@]host[:port]/absolute/path) or in a running container (docker://CONTAINER/absolute/path)"
            value={path}
            onInput={typed(setPath)}
          />
          <button type="button" class="small" data-testid="browse-folders" onClick={() => void folderPicker.open(path)}>
            Browse…
          </button>
        </span>
      </label>
      {folderPicker.isOpen.value && (
        <FolderBrowser
          picker={folderPicker}
          onChoose={(chosen) => {
            setPath(chosen);
            if (!name.trim()) setName(chosen.split("/").filter(Boolean).pop() ?? "");
            if (workspace.error.peek()) workspace.clearError();
            folderPicker.close();
          }}
        />
      )}
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

/** The folders of one folder: open one, go up, or choose the folder shown. */
function FolderBrowser({ picker, onChoose }: { picker: FolderPicker; onChoose: (path: string) => void }) {
  const listing = picker.listing.value;
  return (
    <div class="folder-browser" data-testid="folder-browser" role="group" aria-label="Choose a folder">
      <div class="row folder-browser-head">
        <button type="button" class="small" data-testid="folder-up" disabled={!listing?.parent} aria-label="Up to the parent folder" onClick={() => listing?.parent && void picker.go(listing.parent)}>
          Up
        </button>
        <code class="folder-current" data-testid="folder-current" title={listing?.path}>
          {picker.location.value ?? ""}
          {listing?.path ?? "…"}
        </code>
      </div>
      {picker.error.value && (
        <p class="error" role="alert">
          {picker.error.value}
        </p>
      )}
      <ul class="folder-list" aria-busy={picker.loading.value}>
        {listing?.folders.map((folder) => (
          <li key={folder}>
            <button type="button" class="link" data-testid="folder-item" onClick={() => void picker.go(`${listing.path === "/" ? "" : listing.path}/${folder}`)}>
              {folder}
            </button>
          </li>
        ))}
        {listing && listing.folders.length === 0 && <li class="muted">No folders here.</li>}
        {listing?.truncated && <li class="muted">More folders than shown: type the path instead.</li>}
      </ul>
      <div class="row">
        <button type="button" class="primary small" data-testid="folder-choose" disabled={!listing} onClick={() => listing && onChoose(picker.chosen()!)}>
          Use this folder
        </button>
        <button type="button" class="ghost small" onClick={picker.close}>
          Close
        </button>
      </div>
    </div>
  );
}

/** `onNavigate`: a project or conversation was opened (closes the sidebar when it is a drawer). */
export function Sidebar({ workspace, folderPicker, onNavigate }: { workspace: WorkspaceModel; folderPicker: FolderPicker; onNavigate?: () => void }) {
  const [adding, setAdding] = useState(false);
  const [ask, setAsk] = useState<Ask | null>(null);
  const projectId = workspace.projectId.value;
  // The open project's conversations, newest first, a page at a time.
  const openId = workspace.conversationId.value;
  const listed = useNewestPage(projectId ? (workspace.conversations.value[projectId] ?? []) : [], projectId, (c) => c.id === openId);
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
          folderPicker={folderPicker}
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
                {listed.shown.map((c) => (
                  <li key={c.id} class={c.id === openId ? "selected" : ""} data-testid="conversation-item" data-conversation-id={c.id}>
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
                <ShowMore hidden={listed.hidden} onClick={listed.showMore} testId="more-conversations" />
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
