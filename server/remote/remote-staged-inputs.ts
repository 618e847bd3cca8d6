/**
 * A remote run's inputs, staged where its agent runs: the selected skills' folders (the project's own copied there
 * from its `.od/skills/`, the others sent from this machine), the MCP config file (per the def's injection mode),
 * the image attachments and, for defs that read their prompt from a file, that file — all in the run's private
 * staging folder there (remote-staging.ts), every path handed to the agent a path on that side. The project's own
 * MCP list is read from the project there. Every problem is a run diagnostic; the run goes on.
 */
import { basename } from "node:path";
import { resolveRunImages } from "../inputs/run-images.ts";
import type { PreparedRunInputs, RunInputNote } from "../inputs/prepared-inputs.ts";
import { chooseSkills, skillsUsedNote, wantsSkills } from "../inputs/skill-choice.ts";
import { OdError } from "../errors.ts";
import { mcpServersForRun } from "../mcp/project-mcp-file.ts";
import { claudeMcpConfig, planMcpInjection } from "../mcp/injection.ts";
import type { ProjectMcpConsent } from "../mcp/project-consent.ts";
import type { AgentFile, RuntimeAgentDef } from "../runtimes/types.ts";
import { composeSkillsPreamble, type ComposedSkill } from "../skills/compose.ts";
import { listFiles, MAX_LISTED_FILES, type LoadedSkill, type SkillLibrary } from "../skills/library.ts";
import { stagingFolderName } from "../skills/staging.ts";
import type { Machine } from "../machines/machine.ts";
import { readRemoteProjectSkills } from "./remote-skills.ts";
import { RemoteStaging, RemoteStagingError } from "../machines/remote-staging.ts";
import type { TarEntry } from "../machines/tar-writer.ts";

export type RemoteRunInputsDeps = {
  skills?: SkillLibrary;
  /** `<data dir>/mcp.json`; absent → no user-level MCP servers. */
  userMcpPath?: string;
};

export type RemoteRunInputsRequest = {
  runId: string;
  def: Pick<RuntimeAgentDef, "id" | "name" | "externalMcpInjection" | "supportsImagePaths" | "promptViaFile">;
  /** The project's machine, and its folder there. */
  machine: Machine;
  folder: string;
  /** The project's own folder there, whose `.od/mcp-config.json` is read (a worktree run's checkout); default `folder`. */
  ownFolder?: string;
  message: string;
  skillIds: readonly string[];
  attachments: readonly string[];
  /** The folder on this machine a remote project's uploads are kept in (attachments resolve against it). */
  uploadsRoot?: string;
  note: (note: RunInputNote) => void;
  /** Whether the project's own MCP servers may start (absent: they may; the run service always says). */
  projectMcpConsent?: ProjectMcpConsent;
  /** The def's own file for this run (`agentFile`), staged in the run's folder there. */
  agentFile?: AgentFile;
};

export async function prepareRemoteRunInputs(deps: RemoteRunInputsDeps, request: RemoteRunInputsRequest): Promise<PreparedRunInputs> {
  const { def, note } = request;
  // The project's own skills are read there, and shadow the user's and the bundled ones as locally.
  const project = wantsSkills(deps.skills, request) ? await remoteProjectSkills(request) : undefined;
  const skills = chooseSkills(deps.skills, { ...(project ? { project } : {}), skillIds: request.skillIds, message: request.message, note });
  const servers = await mcpServersForRun(deps.userMcpPath, { machine: request.machine, folder: request.ownFolder ?? request.folder }, note, request.projectMcpConsent);
  const images = remoteImages(request);

  const entries: TarEntry[] = [];
  const skillFolders = skills.map((skill) => ({ skill, folder: `skills/${stagingFolderName(skill.dir)}`, files: (skill.remoteFiles ?? listFiles(skill.dir)).map((f) => f.path) }));
  if (skillFolders.length) entries.push({ path: "skills", mode: 0o700 });
  // Skills of this machine travel in the tar stream; the project's own are copied there, from where they are.
  for (const { skill, folder, files } of skillFolders) if (!skill.remoteFiles) entries.push(...folderEntries(folder, skill.dir, files));
  const copies = skillFolders.flatMap(({ skill, folder }) => (skill.remoteFiles ? [{ source: skill.dir, member: folder }] : []));
  const mcpFile = servers.length && def.externalMcpInjection === "claude-mcp-json" ? "mcp.json" : undefined;
  if (mcpFile) entries.push({ path: mcpFile, mode: 0o600, data: new TextEncoder().encode(JSON.stringify(claudeMcpConfig(servers), null, 2)) });
  const stagedImages = images.map((path, index) => ({ local: path, member: `images/${index + 1}-${basename(path)}` }));
  if (stagedImages.length) entries.push({ path: "images", mode: 0o700 });
  for (const { local, member } of stagedImages) entries.push({ path: member, mode: 0o600, data: () => readBytes(local) });
  const agentFile = request.agentFile;
  if (agentFile) entries.push({ path: agentFile.name, mode: 0o600, data: new TextEncoder().encode(agentFile.content) });

  let staging: RemoteStaging | undefined;
  if (entries.length || def.promptViaFile) {
    try {
      staging = await RemoteStaging.create(request.machine, request.runId);
      await staging.put(entries);
      await staging.copyIn(copies, MAX_LISTED_FILES);
    } catch (error) {
      if (!(error instanceof RemoteStagingError)) throw error;
      await staging?.remove();
      staging = undefined;
      const left = [skills.length ? "skills" : "", mcpFile ? "the MCP config" : "", stagedImages.length ? "images" : "", agentFile ? agentFile.name : ""].filter(Boolean);
      note({ kind: "remote_inputs", message: `${error.message}${left.length ? `; the run goes on without ${left.join(", ")}` : ""}` });
    }
  }

  if (skills.length) note(skillsUsedNote(skills));
  // Unstaged, a project's own skill is still in its folder there (its `dir`); another has only its body there.
  const composed: ComposedSkill[] = skillFolders.map(({ skill, folder, files }) =>
    staging ? { skill, files, remotePath: staging.path(folder) } : { skill, files: skill.remoteFiles ? files : bodyOnly(files) },
  );
  // Env-borne and protocol-borne MCP config needs no file; the file mode's config is the staged one.
  const mcp = mcpFile ? undefined : planMcpInjection(def, servers, {});
  for (const message of mcp?.notes ?? []) note({ kind: "mcp_not_forwarded", message });
  const sentImages = staging && def.supportsImagePaths ? stagedImages : [];
  if (images.length && !def.supportsImagePaths) note({ kind: "attachment_skipped", message: `${def.name} does not accept image attachments; ${images.length} image(s) not sent` });

  let removed: Promise<void> | undefined;
  const stage = staging;
  return {
    systemPreamble: composeSkillsPreamble(composed),
    extraAllowedDirs: stage && skills.length ? [stage.path("skills")] : [],
    context: {
      ...(stage && skills.length ? { skillDirs: skillFolders.map(({ folder }) => stage.path(folder)) } : {}),
      ...(stage && mcpFile ? { mcpConfigPath: stage.path(mcpFile) } : {}),
      ...(stage && agentFile ? { agentFilePath: stage.path(agentFile.name) } : {}),
    },
    mcpServers: mcp?.transportServers ?? [],
    imagePaths: stage ? sentImages.map(({ member }) => stage.path(member)) : [],
    localImagePaths: sentImages.map(({ local }) => local),
    ...(stage
      ? {
          promptFile: {
            path: (attempt: number) => stage.path(`prompt-${attempt}.md`),
            write: (path: string, content: string) => stage.put([{ path: stage.member(path), mode: 0o600, data: new TextEncoder().encode(content) }]),
          },
        }
      : {}),
    applyEnv(env) {
      for (const message of mcp?.applyEnv(env) ?? []) note({ kind: "mcp_not_forwarded", message });
      return env;
    },
    // Runs after the run's `end`: nothing is told. A folder a lost host keeps is in its temp dir, named by the run.
    cleanup() {
      removed ??= stage ? stage.remove().then(() => undefined) : Promise.resolve();
      return removed;
    },
  };
}

/** The project's own skills, read there; undefined (and a diagnostic) when they cannot be. */
async function remoteProjectSkills(request: RemoteRunInputsRequest): Promise<{ skills: LoadedSkill[] } | undefined> {
  try {
    return { skills: await readRemoteProjectSkills(request.machine, request.folder) };
  } catch (error) {
    if (!(error instanceof OdError)) throw error;
    request.note({ kind: "remote_inputs", message: `${error.message}; the run goes on without the project's own skills` });
    return undefined;
  }
}

/** A folder's entries for the tar stream: the folder, its subfolders, then its files (read when streamed). */
function folderEntries(folder: string, sourceDir: string, files: readonly string[]): TarEntry[] {
  const dirs = new Set<string>([folder]);
  for (const file of files) {
    const parts = file.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) dirs.add(`${folder}/${parts.slice(0, i).join("/")}`);
  }
  return [
    ...[...dirs].map((path) => ({ path, mode: 0o700 })),
    ...files.map((file) => ({ path: `${folder}/${file}`, mode: 0o600, data: () => readBytes(`${sourceDir}/${file}`) })),
  ];
}

/**
 * A file's bytes, read when the tar stream reaches it, off the event loop (an image may be megabytes). node:fs/promises
 * is fetched here, not imported: every `od run` loads this module, remote or not.
 */
async function readBytes(path: string): Promise<Uint8Array> {
  return new Uint8Array(await process.getBuiltinModule("node:fs/promises").readFile(path));
}

/** Without a staged copy the agent gets the SKILL.md body alone (its side files are on this machine). */
function bodyOnly(files: readonly string[]): string[] {
  return files.filter((file) => file === "SKILL.md");
}

/** Validated local image paths of the attachments (resolved in the project's local uploads folder). */
function remoteImages(request: RemoteRunInputsRequest): string[] {
  if (!request.attachments.length) return [];
  if (!request.uploadsRoot) {
    for (const attachment of request.attachments) request.note({ kind: "attachment_skipped", message: `attachment ${attachment} skipped: not an upload of this project`, detail: { attachment } });
    return [];
  }
  const images = resolveRunImages(request.uploadsRoot, request.attachments);
  for (const { attachment, reason } of images.skipped) request.note({ kind: "attachment_skipped", message: `attachment ${attachment} skipped: ${reason}`, detail: { attachment } });
  return images.paths;
}
