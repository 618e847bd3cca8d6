/**
 * Every model of the page, wired together: opening a project shows its files and conversations, opening a
 * conversation resumes its runs, a run that writes refreshes the files panel.
 */
import type { SecretStorage } from "../api/session.ts";
import { computed, effect, signal } from "@preact/signals";
import type { Api } from "../api/client.ts";
import type { RunEventStream } from "../api/run-events.ts";
import { createAgentSetupModel } from "./agent-setup.ts";
import { createMcpConsentModel } from "./mcp-consent.ts";
import { machineOf } from "./agents.ts";
import { createProjectAgentsModel } from "./project-agents.ts";
import { createComposerModel } from "./composer.ts";
import { createConfigModel } from "./config.ts";
import { createConnectionTestsModel } from "./connection-tests.ts";
import { createConversationModel } from "./conversation.ts";
import { createDaemonModel } from "./daemon.ts";
import { createFilesModel } from "./files.ts";
import { createMcpModel, createSkillsModel } from "./optional-features.ts";
import { createRunChangesModel } from "./run-changes.ts";
import { createFolderPicker } from "./folder-picker.ts";
import { createRunGroupModel } from "./run-group.ts";
import { createConversationWorktreeModel } from "./conversation-worktree.ts";
import type { FrameScheduler } from "./scheduler.ts";
import { createUsageModel } from "./usage.ts";
import { createWorkspaceModel } from "./workspace.ts";

export type Drawer = "projects" | "files" | null;

export interface AppEnv {
  api: Api;
  stream: RunEventStream;
  schedule?: FrameScheduler;
  /** The page's storage: queued follow-ups outlive a reload (none: they last as long as the page). */
  storage?: SecretStorage;
}

export function createAppModel({ api, stream, schedule, storage }: AppEnv) {
  const daemon = createDaemonModel(api);
  const config = createConfigModel(api);
  const workspace = createWorkspaceModel(api);
  /** The open project's machine's agents (this machine's for a local project). */
  const agents = createProjectAgentsModel(api, workspace.project);
  const files = createFilesModel(api);
  const changes = createRunChangesModel(api, () => void files.refresh());
  /** The new-project form's folder picker. */
  const folderPicker = createFolderPicker(api);
  const skills = createSkillsModel(api);
  const mcp = createMcpModel(api);
  const mcpConsent = createMcpConsentModel(api);
  const conversation = createConversationModel({
    api,
    stream,
    schedule,
    onFilesChanged: () => void files.refresh(),
    onConversationCreated: (id) => void workspace.adoptConversation(id),
    storage,
  });
  /** A run group shown in place of the conversation (one prompt, several agents). */
  const group = createRunGroupModel({
    api,
    stream,
    schedule,
    // Each run of the group is a conversation of its own: the sidebar lists them as they end.
    onRunEnded: () => {
      const project = workspace.projectId.peek();
      if (project) void workspace.loadConversations(project);
    },
  });
  /** The open conversation's worktree, when its runs work in one. */
  const worktree = createConversationWorktreeModel(api);
  const agentSetup = createAgentSetupModel({ api, agents, config });
  // Tests run where the agents shown are: the open project's machine.
  const connectionTests = createConnectionTestsModel(api, computed(() => machineOf(workspace.project.value?.path)));
  const composer = createComposerModel({ api, agents, config, conversation, skills, requestSetup: agentSetup.open, ensureProject: workspace.ensureProject, startGroup: group.start });
  const settingsOpen = signal(false, { name: "app.settingsOpen" });
  const usage = createUsageModel(api);
  /** Settings opened to show the agents that are not installed (their group expanded). */
  const settingsFocus = signal<"not-installed" | null>(null, { name: "app.settingsFocus" });
  /** The side panel shown as a drawer on screens too narrow for it to be a column (CSS decides which are). */
  const drawer = signal<Drawer>(null, { name: "app.drawer" });

  function openSettings(focus: "not-installed" | null = null): void {
    settingsFocus.value = focus;
    settingsOpen.value = true;
    drawer.value = null;
  }

  const stops = [
    effect(() => {
      const project = workspace.projectId.value;
      if (files.projectId.peek() !== project) void files.show(project);
    }),
    effect(() => {
      const project = workspace.projectId.value;
      const id = workspace.conversationId.value;
      // Opening a project or a conversation leaves the group's view.
      group.close();
      // A send that created the conversation already owns it (and its live run): do not reload over it.
      if (conversation.projectId.peek() === project && conversation.conversationId.peek() === id) return;
      void conversation.load(project, id);
    }),
    effect(() => {
      if (settingsOpen.value) void mcp.load();
    }),
    // Read when the conversation opens and again when its run ends (or a new one starts).
    effect(() => {
      const id = workspace.conversationId.value;
      void conversation.activeRun.value;
      void worktree.load(id);
    }),
    // The open project's own MCP servers: asked about when it opens, and again after each run (the file may change).
    effect(() => {
      const project = workspace.projectId.value;
      if (conversation.activeRun.value === null) void mcpConsent.load(project);
    }),
    effect(() => {
      const project = workspace.projectId.value;
      if (composer.text.value.includes("@")) void skills.load(project);
    }),
  ];

  async function start(selection?: { projectId: string | null; conversationId: string | null; groupId?: string | null }): Promise<void> {
    const known = await daemon.check();
    if (daemon.state.peek().kind !== "ready") return;
    // Skills and MCP load on demand (first `@`, Settings opened): their endpoints may not exist yet.
    await Promise.all([config.load(known), workspace.loadProjects()]);
    void agents.local.refresh();
    const wanted = selection?.projectId && workspace.projects.peek().some((p) => p.id === selection.projectId) ? selection : null;
    const first = workspace.projects.peek()[0];
    if (wanted) await workspace.open(wanted.projectId, wanted.conversationId);
    else if (first) await workspace.open(first.id);
    // A reloaded run group's view: `#/p/<project>/g/<group>`.
    if (wanted && selection?.groupId) await group.open(selection.groupId).catch(() => undefined);
  }

  function dispose(): void {
    for (const stop of stops) stop();
    conversation.dispose();
    group.close();
    agents.dispose();
  }

  return { api, daemon, config, changes, folderPicker, group, worktree, agents, mcpConsent, agentSetup, connectionTests, workspace, files, skills, mcp, conversation, composer, settingsOpen, settingsFocus, openSettings, drawer, usage, start, dispose, [Symbol.dispose]: dispose };
}
export type AppModel = ReturnType<typeof createAppModel>;
