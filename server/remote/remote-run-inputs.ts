/**
 * What a run on a remote location does differently: its skills, MCP config and images are staged there by
 * remote-staged-inputs.ts and its changes read there by remote-changes.ts; the agent's executable is found on the
 * remote side's PATH when it starts.
 */
import type { AgentLaunch } from "../runtimes/launch.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";

/** The def's executable by name, to be found on the remote side's PATH (`<ID>_BIN` here means nothing there). */
export function remoteAgentLaunch(def: Pick<RuntimeAgentDef, "bin">): AgentLaunch {
  return { command: def.bin, argsPrefix: [], path: def.bin, env: {}, resolution: { found: true, path: def.bin, source: "path", executable: true, searchedDirs: [] } };
}
