/**
 * What a run on a remote location does differently (its skills, MCP config and images are staged there by
 * remote-staged-inputs.ts): change tracking walks a local folder, so a remote run records no changes. The agent's
 * executable is found on the remote side's PATH when it starts.
 */
import type { ChangeTracker } from "../projects/changes/tracker.ts";
import type { AgentLaunch } from "../runtimes/launch.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";

/** A tracker that records nothing (the project's files are not on this machine). */
export function untrackedChanges(): ChangeTracker {
  return { source: "walk", finish: async () => [] };
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
