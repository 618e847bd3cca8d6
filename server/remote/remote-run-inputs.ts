/**
 * What a run on a remote location does without (for now): skills, MCP config and images are staged in local
 * temp folders an agent on another machine cannot read, so they are left out with a diagnostic saying so. The
 * agent's executable is found on the remote side's PATH when it starts.
 */
import type { CreateRunRequest } from "../contracts/runs.ts";
import type { PreparedRunInputs, RunInputNote } from "../inputs/run-inputs.ts";
import type { AgentLaunch } from "../runtimes/launch.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";

export function remoteRunInputs(request: Pick<CreateRunRequest, "skillIds" | "attachments">, note: (note: RunInputNote) => void): PreparedRunInputs {
  const left = [request.skillIds?.length ? "skills" : "", request.attachments?.length ? "images" : ""].filter(Boolean);
  if (left.length) note({ kind: "remote_inputs", message: `${left.join(" and ")} are not staged on remote projects yet; the run goes on without them` });
  return { systemPreamble: "", extraAllowedDirs: [], context: {}, mcpServers: [], imagePaths: [], applyEnv: (env) => env, cleanup: () => {} };
}

/** The def's executable by name, to be found on the remote side's PATH (`<ID>_BIN` here means nothing there). */
export function remoteAgentLaunch(def: Pick<RuntimeAgentDef, "bin">): AgentLaunch {
  return { command: def.bin, argsPrefix: [], path: def.bin, env: {}, resolution: { found: true, path: def.bin, source: "path", executable: true, searchedDirs: [] } };
}

/** A tool's path stays inside the remote project: relative, and no `..` climbs out of it. */
export function isInsideRemoteFolder(path: string): boolean {
  if (path.startsWith("/") || path.includes("\0")) return false;
  let depth = 0;
  for (const part of path.split("/")) {
    if (part === "..") depth--;
    else if (part && part !== ".") depth++;
    if (depth < 0) return false;
  }
  return depth > 0;
}
