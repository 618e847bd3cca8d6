/**
 * The launch descriptor: which command to spawn for a def (its resolved executable, wrapped in `cmd.exe` for
 * Windows shims) and with which environment. Shared by detection probes and runs so both start the same thing.
 */
import type { EnvMap, RuntimeAgentDef } from "./types.ts";
import { envGet, isWindowsShim, resolveExecutable, type ExecutableLookup, type ExecutableResolution } from "./executables.ts";

/** How to start a def's executable. */
export type AgentLaunch = {
  /** What to spawn. */
  command: string;
  /** Arguments placed before the def's argv (`/d /s /c <shim>` for Windows shims). */
  argsPrefix: string[];
  /** The resolved executable. */
  path: string;
  /** Environment of the child: daemon env plus the def's static env. */
  env: Record<string, string | undefined>;
  resolution: Extract<ExecutableResolution, { found: true }>;
};

/** Daemon env plus the def's static env (the def wins). */
export function agentEnv(def: Pick<RuntimeAgentDef, "env">, baseEnv: EnvMap): Record<string, string | undefined> {
  return { ...baseEnv, ...def.env };
}

/** `[command, ...argsPrefix, ...args]`. */
export function launchArgv(launch: Pick<AgentLaunch, "command" | "argsPrefix">, args: readonly string[]): string[] {
  return [launch.command, ...launch.argsPrefix, ...args];
}

/** Resolve a def to a launch descriptor, or the failed resolution (for diagnostics). */
export function resolveAgentLaunch(
  def: RuntimeAgentDef,
  lookup: ExecutableLookup,
): { ok: true; launch: AgentLaunch } | { ok: false; resolution: ExecutableResolution } {
  const resolution = resolveExecutable(def, lookup);
  if (!resolution.found) return { ok: false, resolution };
  const env = agentEnv(def, lookup.env);
  if (isWindowsShim(resolution.path, lookup.platform)) {
    const shell = envGet(lookup.env, "ComSpec", lookup.platform) || "cmd.exe";
    return { ok: true, launch: { command: shell, argsPrefix: ["/d", "/s", "/c", resolution.path], path: resolution.path, env, resolution } };
  }
  return { ok: true, launch: { command: resolution.path, argsPrefix: [], path: resolution.path, env, resolution } };
}
