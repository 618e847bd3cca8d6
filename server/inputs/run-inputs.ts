/**
 * Everything od feeds an agent besides the message: selected skills (composed into the system preamble and staged
 * into `.od-skills/`), external MCP servers (per the def's injection mode), and image attachments. Prepared once
 * per run by the run service; every problem is a run diagnostic, never a failed run.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import type { McpServer } from "../contracts/mcp.ts";
import { mergeMcpServers, projectMcpPath, readMcpFile } from "../mcp/config-files.ts";
import { planMcpInjection } from "../mcp/injection.ts";
import { isInside } from "../projects/paths.ts";
import type { McpServerConfig } from "../runtimes/protocols/types.ts";
import type { RuntimeAgentDef, RuntimeContext } from "../runtimes/types.ts";
import { composeSkillsPreamble, selectSkills, type ComposedSkill } from "../skills/compose.ts";
import type { TreeCopier } from "../skills/copy-tree.ts";
import { listFiles, type LoadedSkill, type SkillLibrary } from "../skills/library.ts";
import { stageSkill, type StageResult } from "../skills/staging.ts";
import { resolveRunImages } from "./run-images.ts";

/** A diagnostic for the run's event stream. */
export type RunInputNote = { kind: string; message: string; detail?: unknown };

export type RunInputsRequest = {
  runId: string;
  def: Pick<RuntimeAgentDef, "id" | "name" | "externalMcpInjection" | "supportsImagePaths">;
  projectDir: string;
  message: string;
  skillIds: readonly string[];
  attachments: readonly string[];
  note: (note: RunInputNote) => void;
};

export type PreparedRunInputs = {
  /** Skill instructions for `composePrompt`'s `systemPreamble` ("" when no skill is selected). */
  systemPreamble: string;
  /** Folders outside the project the agent may read (roots of the selected skills). */
  extraAllowedDirs: string[];
  /** RuntimeContext additions: `skillDirs` (staged skill folders), `mcpConfigPath`. */
  context: Pick<RuntimeContext, "skillDirs" | "mcpConfigPath">;
  /** For protocol transports (`acp-merge`). */
  mcpServers: McpServerConfig[];
  /** Absolute, validated image paths (empty when the def takes no images). */
  imagePaths: string[];
  /** Adds env-borne config (OPENCODE_CONFIG_CONTENT, …) to the child's env, in place. */
  applyEnv(env: Record<string, string>): Record<string, string>;
  /** Removes temp files; idempotent. */
  cleanup(): void;
};

export interface RunInputsProvider {
  prepare(request: RunInputsRequest): Promise<PreparedRunInputs>;
}

export type RunInputsDeps = {
  skills?: SkillLibrary;
  /** `<data dir>/mcp.json`; absent → no user-level MCP servers. */
  userMcpPath?: string;
  /** Folder for generated MCP config files (default: the OS temp dir). */
  tempDir?: string;
  /** Copy function for staging (tests force the stream fallback with it). */
  copy?: TreeCopier;
};

export function createRunInputs(deps: RunInputsDeps = {}): RunInputsProvider {
  return { prepare: (request) => prepareRunInputs(deps, request) };
}

async function prepareRunInputs(deps: RunInputsDeps, request: RunInputsRequest): Promise<PreparedRunInputs> {
  const { note } = request;
  const skills = await prepareSkills(deps, request);
  const servers = mcpServersFor(deps, request.projectDir, note);
  const mcp = planMcpInjection(request.def, servers, { tempDir: deps.tempDir ?? tmpdir(), runId: request.runId });
  for (const message of mcp.notes) note({ kind: "mcp_not_forwarded", message });

  const images = resolveRunImages(request.projectDir, request.attachments);
  for (const { attachment, reason } of images.skipped) note({ kind: "attachment_skipped", message: `attachment ${attachment} skipped: ${reason}`, detail: { attachment } });
  if (images.paths.length && !request.def.supportsImagePaths) {
    note({ kind: "attachment_skipped", message: `${request.def.name} does not accept image attachments; ${images.paths.length} image(s) not sent` });
  }

  let files = mcp.files;
  return {
    systemPreamble: skills.preamble,
    extraAllowedDirs: skills.roots,
    context: { ...(skills.stagedDirs.length ? { skillDirs: skills.stagedDirs } : {}), ...(mcp.mcpConfigPath ? { mcpConfigPath: mcp.mcpConfigPath } : {}) },
    mcpServers: mcp.transportServers,
    imagePaths: request.def.supportsImagePaths ? images.paths : [],
    applyEnv(env) {
      for (const message of mcp.applyEnv(env)) note({ kind: "mcp_not_forwarded", message });
      return env;
    },
    cleanup() {
      for (const file of files) rmSync(file, { force: true });
      files = [];
    },
  };
}

async function prepareSkills(deps: RunInputsDeps, request: RunInputsRequest): Promise<{ preamble: string; roots: string[]; stagedDirs: string[] }> {
  const none = { preamble: "", roots: [], stagedDirs: [] };
  if (!deps.skills) return none;
  const mentionsPossible = request.message.includes("@");
  if (!request.skillIds.length && !mentionsPossible) return none;
  const selection = selectSkills(deps.skills.list(request.projectDir), request.skillIds, request.message);
  for (const id of selection.unknownIds) request.note({ kind: "skill_unknown", message: `no skill '${id}'; it was not used`, detail: { skillId: id } });
  for (const skill of selection.unusable) {
    const why = skill.diagnostics.find((d) => d.severity === "error")?.message ?? "it is invalid";
    request.note({ kind: "skill_unusable", message: `skill '${skill.id}' was not used: ${why}`, detail: { skillId: skill.id } });
  }
  if (!selection.selected.length) return none;

  const composed: ComposedSkill[] = [];
  const stagedDirs: string[] = [];
  let refused = false;
  for (const skill of selection.selected) {
    const files = listFiles(skill.dir).map((f) => f.path);
    const staged: StageResult | undefined = refused ? undefined : await stageSkill(skill.dir, request.projectDir, deps.copy);
    if (staged?.staged) {
      stagedDirs.push(staged.absPath);
      composed.push({ skill, files, stagedPath: staged.relPath });
    } else {
      if (staged) {
        request.note({ kind: "skill_staging", message: staged.reason, detail: { skillId: skill.id } });
        refused = staged.code === "staging-dir-not-a-folder"; // the same for every skill: say it once
      }
      composed.push({ skill, files });
    }
  }
  request.note({ kind: "skills", message: `using skill${composed.length === 1 ? "" : "s"} ${composed.map((c) => c.skill.id).join(", ")}`, detail: { skillIds: composed.map((c) => c.skill.id) } });
  return { preamble: composeSkillsPreamble(composed), roots: externalRoots(selection.selected, request.projectDir), stagedDirs };
}

/** Parent folders of the selected skills that lie outside the project (the project's own skills need no grant). */
function externalRoots(skills: LoadedSkill[], projectDir: string): string[] {
  const roots: string[] = [];
  for (const skill of skills) {
    if (skill.source === "project") continue;
    const root = dirname(skill.dir);
    if (!roots.includes(root) && !isInside(projectDir, root)) roots.push(root);
  }
  return roots;
}

function mcpServersFor(deps: RunInputsDeps, projectDir: string, note: (n: RunInputNote) => void): McpServer[] {
  const user = deps.userMcpPath ? readMcpFile(deps.userMcpPath) : { servers: [], diagnostics: [] };
  const project = readMcpFile(projectMcpPath(projectDir));
  for (const message of [...user.diagnostics, ...project.diagnostics]) note({ kind: "mcp_config_invalid", message });
  return mergeMcpServers(user.servers, project.servers).map((entry) => entry.server);
}
