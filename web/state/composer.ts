/**
 * The composer: prompt text, the agent/model/reasoning choice (persisted in app-config), skill chips with `@`
 * completion, and image attachments uploaded into the project.
 */
import { computed, signal } from "@preact/signals";
import type { RuntimeChoice, RuntimeModelOption } from "../../server/contracts/agents.ts";
import type { UploadResponse } from "../../server/contracts/uploads.ts";
import type { CreateRunGroupRequest } from "../../server/contracts/worktrees.ts";
import { errorMessage, type Api } from "../api/client.ts";
import type { PermissionModeValue } from "../../server/contracts/approval-values.ts";
import type { AgentsView } from "./agents.ts";
import type { ConfigModel } from "./config.ts";
import type { ConversationModel, SendRequest } from "./conversation.ts";
import type { SkillsModel, SkillSummary } from "./optional-features.ts";

/** An uploaded image, by its project-relative path. */
export interface Attachment {
  path: string;
  name: string;
}

const MENTION = /(^|\s)@([\w.:-]*)$/;

export interface ComposerDeps {
  api: Api;
  agents: AgentsView;
  config: ConfigModel;
  conversation: ConversationModel;
  skills: SkillsModel;
  /** Picking an agent that needs setup opens its setup dialog instead of selecting it. */
  requestSetup?: (agentId: string) => void;
  /**
   * With no project open, a prompt (or an image) first opens one through this — the first screen takes a prompt at
   * once. Resolves to the project id once the conversation is on it; throws with a reason the composer shows.
   */
  ensureProject?: () => Promise<string>;
  /** Sends one prompt to several agents (`POST /api/run-groups`); resolves false when it was refused. */
  startGroup?: (request: CreateRunGroupRequest) => Promise<boolean>;
}

export function createComposerModel({ api, agents, config, conversation, skills, requestSetup, ensureProject, startGroup }: ComposerDeps) {
  const text = signal("", { name: "composer.text" });
  const attachments = signal<Attachment[]>([], { name: "composer.attachments" });
  const skillIds = signal<string[]>([], { name: "composer.skillIds" });
  const uploading = signal(0, { name: "composer.uploading" });
  const error = signal<string | null>(null, { name: "composer.error" });
  /** A default project is being opened for the first prompt. */
  const startingProject = signal(false, { name: "composer.startingProject" });
  /** "Ask several agents": the prompt goes to each agent picked here, each in a worktree of its own. */
  const several = signal(false, { name: "composer.several" });
  const severalIds = signal<string[]>([], { name: "composer.severalIds" });
  /** A new conversation's runs work in a git worktree of their own (its first run decides; later ones follow). */
  const isolated = signal(false, { name: "composer.isolated" });
  /** No turn yet: the conversation's isolation can still be chosen. */
  const fresh = computed(() => conversation.timeline.value.length === 0, { name: "composer.fresh" });

  /** The configured agent when it is available, else the first available one. */
  const agent = computed(
    () => {
      const chosen = agents.byId(config.config.value.agentId);
      return chosen?.available ? chosen : (agents.available.value[0] ?? null);
    },
    { name: "composer.agent" },
  );
  const choice = computed(() => config.choiceFor(agent.value?.id), { name: "composer.choice" });
  const models = computed<RuntimeModelOption[]>(() => (agent.value?.models ?? []).filter((m) => m.enabled !== false), { name: "composer.models" });
  const selectedModel = computed(() => choice.value.model ?? models.value.find((m) => m.default)?.id ?? models.value[0]?.id ?? "default", {
    name: "composer.model",
  });
  const reasoningOptions = computed<RuntimeChoice[]>(
    () => models.value.find((m) => m.id === selectedModel.value)?.reasoningOptions ?? agent.value?.reasoningOptions ?? [],
    { name: "composer.reasoningOptions" },
  );
  /** What the reasoning picker lists: one default (the CLI's own setting, sent as no flag), then the agent's levels. */
  const reasoningChoices = computed<RuntimeChoice[]>(
    () => (reasoningOptions.value.length ? [{ id: "", label: "Default reasoning" }, ...reasoningOptions.value.filter((r) => r.id !== "default")] : []),
    { name: "composer.reasoningChoices" },
  );
  const selectedReasoning = computed(
    () => {
      const id = choice.value.reasoning ?? reasoningOptions.value.find((r) => r.default)?.id ?? "";
      // The agent's own "default" is the picker's "Default reasoning" (""): no flag, the CLI's own setting.
      return id === "default" ? "" : id;
    },
    { name: "composer.reasoning" },
  );
  /**
   * How much the agent may do without asking: the project's remembered mode, else the agent's default, else
   * `bypass` (od's default); a mode the agent cannot honour falls back to `bypass`, which every agent has.
   */
  const permissionModes = computed<PermissionModeValue[]>(() => agent.value?.permissionModes ?? ["bypass"], { name: "composer.permissionModes" });
  /** The mode remembered for the project (else the agent), if any: the daemon applies it to a run that names none. */
  const rememberedMode = computed<PermissionModeValue | undefined>(() => {
    const project = conversation.projectId.value;
    const cfg = config.config.value;
    return (project ? cfg.projectPermissionModes?.[project] : undefined) ?? (agent.value ? cfg.agentPermissionModes?.[agent.value.id] : undefined);
  });
  const permissionMode = computed<PermissionModeValue>(
    () => {
      const wanted = rememberedMode.value ?? "bypass";
      return permissionModes.value.includes(wanted) ? wanted : "bypass";
    },
    { name: "composer.permissionMode" },
  );
  const customModelAllowed = computed(() => agent.value?.supportsCustomModel !== false, { name: "composer.customModelAllowed" });
  const mentionQuery = computed(() => (skills.supported.value ? (MENTION.exec(text.value)?.[2] ?? null) : null), { name: "composer.mentionQuery" });
  const mentionOptions = computed(() => (mentionQuery.value === null ? [] : skills.complete(mentionQuery.value)), { name: "composer.mentionOptions" });
  const canSend = computed(
    () =>
      text.value.trim() !== "" &&
      (several.value ? severalIds.value.length >= 2 && startGroup !== undefined : agent.value !== null) &&
      uploading.value === 0 &&
      !conversation.sending.value &&
      !startingProject.value &&
      (conversation.projectId.value !== null || ensureProject !== undefined),
    { name: "composer.canSend" },
  );

  /** The conversation's project, opening one first when there is none; null (with the reason shown) if that fails. */
  async function projectForInput(): Promise<string | null> {
    const current = conversation.projectId.peek();
    if (current || !ensureProject) return current;
    startingProject.value = true;
    try {
      await ensureProject();
      return conversation.projectId.peek();
    } catch (projectError) {
      error.value = errorMessage(projectError);
      return null;
    } finally {
      startingProject.value = false;
    }
  }

  function chooseAgent(id: string): void {
    if (agents.byId(id)?.state === "setup-required" && requestSetup) return requestSetup(id);
    void config.update({ agentId: id });
  }

  /** Opens or closes "Ask several agents"; opening it starts from the agent picked now. */
  function toggleSeveral(): void {
    several.value = !several.peek();
    const current = agent.peek()?.id;
    if (several.peek() && severalIds.peek().length === 0 && current) severalIds.value = [current];
  }

  function toggleSeveralAgent(id: string): void {
    const ids = severalIds.peek();
    severalIds.value = ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id];
  }

  function chooseModel(model: string, reasoning?: string): void {
    const id = agent.peek()?.id;
    if (!id) return;
    const next = { ...config.choiceFor(id), model: model || undefined, ...(reasoning !== undefined ? { reasoning: reasoning || undefined } : {}) };
    void config.update({ agentModels: { [id]: next } });
  }

  /** Remembered for the open project (Send with no project open remembers it for the one it opens). */
  async function choosePermissionMode(mode: PermissionModeValue): Promise<void> {
    const project = await projectForInput();
    if (!project) return;
    void config.update({ projectPermissionModes: { [project]: mode } });
  }

  function chooseReasoning(reasoning: string): void {
    chooseModel(selectedModel.peek(), reasoning);
  }

  function acceptMention(skill: SkillSummary): void {
    text.value = text.peek().replace(MENTION, `$1@${skill.id} `);
    if (!skillIds.peek().includes(skill.id)) skillIds.value = [...skillIds.peek(), skill.id];
  }

  function removeSkill(id: string): void {
    skillIds.value = skillIds.peek().filter((s) => s !== id);
  }

  /** Uploads images (drag, paste or pick) into the project; non-images are ignored. */
  async function addImages(files: Iterable<File>): Promise<void> {
    const images = [...files].filter((file) => file.type.startsWith("image/"));
    if (!images.length) return;
    const project = await projectForInput();
    if (!project) return;
    for (const file of images) {
      uploading.value++;
      try {
        const dataBase64 = await toBase64(file);
        const { path, name } = await api.post<UploadResponse>(`/api/projects/${encodeURIComponent(project)}/uploads`, {
          name: file.name || "pasted-image.png",
          mimeType: file.type,
          dataBase64,
        });
        if (!attachments.peek().some((a) => a.path === path)) attachments.value = [...attachments.peek(), { path, name: file.name || name }];
      } catch (uploadError) {
        error.value = `Could not attach ${file.name}: ${errorMessage(uploadError)}`;
      } finally {
        uploading.value--;
      }
    }
  }

  function removeAttachment(path: string): void {
    attachments.value = attachments.peek().filter((a) => a.path !== path);
  }

  /** The request the composer would send now (null when it cannot send). */
  function request(): SendRequest | null {
    const chosen = agent.peek();
    const message = text.peek().trim();
    if (!chosen || !message) return null;
    const model = selectedModel.peek();
    const reasoning = selectedReasoning.peek();
    return {
      message,
      agentId: chosen.id,
      ...(model && model !== "default" ? { model } : {}),
      ...(reasoning ? { reasoning } : {}),
      // Said whenever it is not the daemon's own default, so a remembered mode this agent lacks is never asked for.
      ...(permissionMode.peek() !== "bypass" || rememberedMode.peek() !== undefined ? { permissionMode: permissionMode.peek() } : {}),
      ...(attachments.peek().length ? { attachments: attachments.peek().map((a) => a.path) } : {}),
      ...(skillIds.peek().length ? { skillIds: skillIds.peek() } : {}),
      ...(isolated.peek() && fresh.peek() ? { isolation: "worktree" as const } : {}),
    };
  }

  async function submit(): Promise<void> {
    if (!canSend.peek()) return;
    const body = request();
    if (!body) return;
    error.value = null;
    const project = await projectForInput();
    if (!project) return;
    const sent = several.peek() && startGroup ? await startGroup(groupRequest(project, body)) : await conversation.send(body);
    if (sent) {
      text.value = "";
      attachments.value = [];
      skillIds.value = [];
    }
  }

  /** Takes a queued follow-up back into the prompt box to change it (before what is typed there, if anything). */
  function editFollowUp(id: number): void {
    const followUp = conversation.followUps.remove(id);
    if (!followUp) return;
    const typed = text.peek().trim();
    text.value = typed ? `${followUp.request.message}\n\n${typed}` : followUp.request.message;
  }

  /** The prompt for each agent picked: each agent's own saved model and reasoning, the rest as for one. */
  function groupRequest(projectId: string, { agentId: _agentId, model: _model, reasoning: _reasoning, isolation: _isolation, ...shared }: SendRequest): CreateRunGroupRequest {
    return { ...shared, projectId, agentIds: severalIds.peek() };
  }

  return {
    text,
    attachments,
    skillIds,
    uploading,
    error,
    startingProject,
    several,
    severalIds,
    isolated,
    fresh,
    toggleSeveral,
    toggleSeveralAgent,
    agent,
    models,
    selectedModel,
    reasoningOptions,
    reasoningChoices,
    selectedReasoning,
    customModelAllowed,
    permissionModes,
    permissionMode,
    choosePermissionMode,
    mentionQuery,
    mentionOptions,
    canSend,
    chooseAgent,
    chooseModel,
    chooseReasoning,
    acceptMention,
    removeSkill,
    addImages,
    removeAttachment,
    request,
    submit,
    editFollowUp,
  };
}
export type ComposerModel = ReturnType<typeof createComposerModel>;

async function toBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
