/** Projects and their conversations, and which one is open. */
import { computed, signal } from "@preact/signals";
import type { Conversation, Project } from "../../server/contracts/projects.ts";
import { errorMessage, type Api } from "../api/client.ts";

/** The project a first prompt starts in when none is open: a new folder under the data dir, renamable later. */
export const DEFAULT_PROJECT_NAME = "My project";

export function createWorkspaceModel(api: Api) {
  const projects = signal<Project[]>([], { name: "workspace.projects" });
  const conversations = signal<Record<string, Conversation[]>>({}, { name: "workspace.conversations" });
  const projectId = signal<string | null>(null, { name: "workspace.projectId" });
  const conversationId = signal<string | null>(null, { name: "workspace.conversationId" });
  const error = signal<string | null>(null, { name: "workspace.error" });
  const loaded = signal(false, { name: "workspace.loaded" });

  const project = computed(() => projects.value.find((p) => p.id === projectId.value) ?? null, { name: "workspace.project" });
  const conversation = computed(
    () => (projectId.value ? (conversations.value[projectId.value] ?? []).find((c) => c.id === conversationId.value) ?? null : null),
    { name: "workspace.conversation" },
  );

  async function attempt<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await action();
      error.value = null;
      return result;
    } catch (actionError) {
      error.value = errorMessage(actionError);
      return undefined;
    }
  }

  async function loadProjects(): Promise<void> {
    await attempt(async () => {
      projects.value = (await api.get<{ projects: Project[] }>("/api/projects")).projects;
    });
    loaded.value = true;
  }

  async function loadConversations(id: string): Promise<void> {
    await attempt(async () => {
      const list = (await api.get<{ conversations: Conversation[] }>(`/api/projects/${encodeURIComponent(id)}/conversations`)).conversations;
      conversations.value = { ...conversations.value, [id]: list };
    });
  }

  /** Opens a project (and optionally one of its conversations); loads its conversations. */
  async function open(id: string | null, conversation: string | null = null): Promise<void> {
    projectId.value = id;
    conversationId.value = conversation;
    if (id) await loadConversations(id);
  }

  function openConversation(id: string | null): void {
    conversationId.value = id;
  }

  async function createProject(name: string, path?: string): Promise<Project | undefined> {
    const created = await attempt(() => api.post<{ project: Project }>("/api/projects", path ? { name, path } : { name }));
    if (!created) return undefined;
    projects.value = [...projects.value, created.project];
    await open(created.project.id);
    return created.project;
  }

  let ensuring: Promise<string> | null = null;
  /**
   * The open project's id; with none open (a first prompt), the project named {@link DEFAULT_PROJECT_NAME}, opened
   * or created. Throws with the daemon's reason when it cannot be created.
   */
  function ensureProject(): Promise<string> {
    const open = projectId.peek();
    if (open) return Promise.resolve(open);
    return (ensuring ??= openDefaultProject().finally(() => (ensuring = null)));
  }

  async function openDefaultProject(): Promise<string> {
    const existing = projects.peek().find((p) => p.name === DEFAULT_PROJECT_NAME);
    if (existing) {
      await open(existing.id);
      return existing.id;
    }
    const created = await createProject(DEFAULT_PROJECT_NAME);
    if (!created) throw new Error(`Could not create the project “${DEFAULT_PROJECT_NAME}”: ${error.peek() ?? "unknown error"}`);
    return created.id;
  }

  async function renameProject(id: string, name: string): Promise<void> {
    await attempt(() => api.put(`/api/projects/${encodeURIComponent(id)}`, { name }));
    projects.value = projects.value.map((p) => (p.id === id ? { ...p, name } : p));
  }

  async function deleteProject(id: string): Promise<void> {
    if ((await attempt(() => api.del(`/api/projects/${encodeURIComponent(id)}`))) === undefined) return;
    projects.value = projects.value.filter((p) => p.id !== id);
    if (projectId.value === id) await open(null);
  }

  async function createConversation(title?: string): Promise<void> {
    const id = projectId.value;
    if (!id) return;
    const created = await attempt(() =>
      api.post<{ conversation: Conversation }>(`/api/projects/${encodeURIComponent(id)}/conversations`, title ? { title } : {}),
    );
    if (!created) return;
    conversations.value = { ...conversations.value, [id]: [created.conversation, ...(conversations.value[id] ?? [])] };
    conversationId.value = created.conversation.id;
  }

  async function renameConversation(id: string, title: string): Promise<void> {
    await attempt(() => api.put(`/api/conversations/${encodeURIComponent(id)}`, { title }));
    conversations.value = Object.fromEntries(
      Object.entries(conversations.value).map(([pid, list]) => [pid, list.map((c) => (c.id === id ? { ...c, title } : c))]),
    );
  }

  async function deleteConversation(id: string): Promise<void> {
    if ((await attempt(() => api.del(`/api/conversations/${encodeURIComponent(id)}`))) === undefined) return;
    conversations.value = Object.fromEntries(Object.entries(conversations.value).map(([pid, list]) => [pid, list.filter((c) => c.id !== id)]));
    if (conversationId.value === id) conversationId.value = null;
  }

  /** A run created a conversation: list it and open it. */
  async function adoptConversation(id: string): Promise<void> {
    conversationId.value = id;
    if (projectId.value) await loadConversations(projectId.value);
  }

  return {
    /** The person is fixing what was refused: its reason goes. */
    clearError: () => void (error.value = null),
    projects,
    conversations,
    projectId,
    conversationId,
    project,
    conversation,
    error,
    loaded,
    loadProjects,
    loadConversations,
    open,
    openConversation,
    createProject,
    ensureProject,
    renameProject,
    deleteProject,
    createConversation,
    renameConversation,
    deleteConversation,
    adoptConversation,
  };
}
export type WorkspaceModel = ReturnType<typeof createWorkspaceModel>;
