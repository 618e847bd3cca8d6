/**
 * Everything od feeds an agent besides the message: selected skills (composed into the system preamble and staged
 * into `.od-skills/`), external MCP servers (per the def's injection mode), and image attachments. Prepared once
 * per run by the run service; every problem is a run diagnostic, never a failed run. A run on another machine or
 * in a container gets the same inputs staged there instead (server/remote/remote-staged-inputs.ts).
 */
import { dirname } from "node:path";
import { planMcpInjection } from "../mcp/injection.ts";
import type { ProjectMcpConsent } from "../mcp/project-consent.ts";
import { mcpServersForRun } from "../mcp/project-mcp-file.ts";
import { LocalMachine } from "../machines/local-machine.ts";
import { isInside } from "../machines/folder-paths.ts";
import type { AgentFile, RuntimeAgentDef } from "../runtimes/types.ts";
import { composeSkillsPreamble, type ComposedSkill } from "../skills/compose.ts";
import type { TreeCopier } from "../skills/copy-tree.ts";
import { listFiles, type LoadedSkill, type SkillLibrary } from "../skills/library.ts";
import { stageSkill, type StageResult } from "../skills/staging.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import type * as RemoteStagedInputs from "../remote/remote-staged-inputs.ts";
import { resolveRunImages } from "./run-images.ts";
import { RunTempFolder } from "./run-temp-folder.ts";
import { remoteUploadsRoot } from "./upload-root.ts";
import { chooseSkills, skillsUsedNote } from "./skill-choice.ts";
import type { PreparedRunInputs, RunInputNote } from "./prepared-inputs.ts";

export type { PreparedRunInputs, RunInputNote } from "./prepared-inputs.ts";

export type RunInputsRequest = {
  runId: string;
  def: Pick<RuntimeAgentDef, "id" | "name" | "externalMcpInjection" | "supportsImagePaths">;
  projectDir: string;
  /**
   * The project's own folder, where its `.od/` is read (the MCP list, uploaded images): a worktree run's checkout.
   * Default `projectDir`.
   */
  ownFolder?: string;
  message: string;
  skillIds: readonly string[];
  attachments: readonly string[];
  note: (note: RunInputNote) => void;
  /** Whether the project's own MCP servers may start (absent: they may; the run service always says). */
  projectMcpConsent?: ProjectMcpConsent;
  /** The def's own file for this run (`agentFile`), written to the run's private folder. */
  agentFile?: AgentFile;
};

/** A run on a remote location: its inputs are staged there (server/remote/remote-staged-inputs.ts). */
export type RemoteInputsRequest = Omit<RemoteStagedInputs.RemoteRunInputsRequest, "uploadsRoot"> & { projectId: string };

export interface RunInputsProvider {
  prepare(request: RunInputsRequest): Promise<PreparedRunInputs>;
  prepareRemote(request: RemoteInputsRequest): Promise<PreparedRunInputs>;
}

export type RunInputsDeps = {
  skills?: SkillLibrary;
  /** `<data dir>/mcp.json`; absent → no user-level MCP servers. */
  userMcpPath?: string;
  /** Where runs' private temp folders are made (default: the OS temp dir). */
  tempDir?: string;
  /** Copy function for staging (tests force the stream fallback with it). */
  copy?: TreeCopier;
  /** Where uploads to remote projects are kept on this machine (`<dir>/<project id>/.od/uploads/`). */
  remoteUploadsDir?: string;
};

/** Staging inputs on another machine (tar, the remote scripts), evaluated for the first run there. */
const remoteStagedInputs = loadOnFirstUse<typeof RemoteStagedInputs>(import.meta.url, "../remote/remote-staged-inputs.ts", () => require("../remote/remote-staged-inputs.ts"));

/** Where a local project's own MCP list is read. */
const LOCAL = new LocalMachine();

export function createRunInputs(deps: RunInputsDeps = {}): RunInputsProvider {
  return {
    prepare: (request) => prepareRunInputs(deps, request),
    prepareRemote: ({ projectId, ...request }) =>
      remoteStagedInputs().prepareRemoteRunInputs(deps, { ...request, ...(deps.remoteUploadsDir ? { uploadsRoot: remoteUploadsRoot(deps.remoteUploadsDir, projectId) } : {}) }),
  };
}

async function prepareRunInputs(deps: RunInputsDeps, request: RunInputsRequest): Promise<PreparedRunInputs> {
  const { note } = request;
  const skills = await prepareSkills(deps, request);
  const servers = await mcpServersForRun(deps.userMcpPath, { machine: LOCAL, folder: request.ownFolder ?? request.projectDir }, note, request.projectMcpConsent);
  // The MCP config and prompt files, in a folder only this user can enter, removed at the run's end.
  const temp = new RunTempFolder(request.runId, deps.tempDir);
  const mcp = planMcpInjection(request.def, servers, { folder: temp });
  const agentFilePath = request.agentFile ? temp.file(request.agentFile.name) : undefined;
  if (agentFilePath) temp.write(agentFilePath, request.agentFile!.content);
  for (const message of mcp.notes) note({ kind: "mcp_not_forwarded", message });

  const images = resolveRunImages(request.ownFolder ?? request.projectDir, request.attachments);
  for (const { attachment, reason } of images.skipped) note({ kind: "attachment_skipped", message: `attachment ${attachment} skipped: ${reason}`, detail: { attachment } });
  if (images.paths.length && !request.def.supportsImagePaths) {
    note({ kind: "attachment_skipped", message: `${request.def.name} does not accept image attachments; ${images.paths.length} image(s) not sent` });
  }

  return {
    systemPreamble: skills.preamble,
    extraAllowedDirs: skills.roots,
    context: {
      ...(skills.stagedDirs.length ? { skillDirs: skills.stagedDirs } : {}),
      ...(mcp.mcpConfigPath ? { mcpConfigPath: mcp.mcpConfigPath } : {}),
      ...(agentFilePath ? { agentFilePath } : {}),
    },
    mcpServers: mcp.transportServers,
    imagePaths: request.def.supportsImagePaths ? images.paths : [],
    promptFile: {
      path: (attempt) => temp.file(`prompt-${attempt}.md`),
      write: async (path, content) => temp.write(path, content),
    },
    applyEnv(env) {
      for (const message of mcp.applyEnv(env)) note({ kind: "mcp_not_forwarded", message });
      return env;
    },
    cleanup() {
      temp.remove();
    },
  };
}

async function prepareSkills(deps: RunInputsDeps, request: RunInputsRequest): Promise<{ preamble: string; roots: string[]; stagedDirs: string[] }> {
  const selected = chooseSkills(deps.skills, { ...request, project: request.projectDir });
  if (!selected.length) return { preamble: "", roots: [], stagedDirs: [] };

  const composed: ComposedSkill[] = [];
  const stagedDirs: string[] = [];
  let refused = false;
  for (const skill of selected) {
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
  request.note(skillsUsedNote(selected));
  return { preamble: composeSkillsPreamble(composed), roots: externalRoots(selected, request.projectDir), stagedDirs };
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
