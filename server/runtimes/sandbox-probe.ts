/**
 * Whether an agent's own sandbox can start where the agent runs: the def's trivial command under that sandbox
 * (codex: `codex sandbox -- true`), run there like every other probe. In a container without user namespaces, or
 * on a kernel without Landlock, it cannot, and every run there would fail at its first command. Only a failure that
 * reads as the sandbox's own (sandbox-failures.ts) is reported: a CLI that does not know the probe says nothing.
 */
import type { AgentDiagnostic } from "../contracts/agents.ts";
import { sandboxUnavailableDiagnostic } from "./diagnostics.ts";
import { launchArgv, type AgentLaunch } from "./launch.ts";
import type { ProbeRunner } from "./probe.ts";
import { recognizeSandboxFailure } from "./sandbox-failures.ts";
import type { EnvMap, RuntimeAgentDef } from "./types.ts";

export type SandboxProbeOptions = {
  /** The settings of runs on this machine (the daemon's env with the machine's `machineEnv`). */
  settingsEnv: EnvMap;
  /** The machine, for people ("this machine", "od-test-host") and for the setting's key. */
  where: string;
  machineKey: string;
  timeoutMs: number;
  signal?: AbortSignal;
};

export type SandboxProbeResult = { diagnostic?: AgentDiagnostic; ms?: number };

export async function probeSandbox(
  def: RuntimeAgentDef,
  launch: AgentLaunch,
  run: ProbeRunner,
  options: SandboxProbeOptions,
): Promise<SandboxProbeResult> {
  const args = def.sandboxProbe?.args(options.settingsEnv);
  if (!def.sandboxProbe || !args) return {};
  const result = await run(launchArgv(launch, args), { env: launch.env, timeoutMs: options.timeoutMs, maxBytes: 64 * 1024, signal: options.signal });
  if (result.kind !== "exited" || result.code === 0) return { ms: result.ms };
  const failure = recognizeSandboxFailure(`${result.stderr}\n${result.stdout}`);
  if (!failure) return { ms: result.ms };
  return { ms: result.ms, diagnostic: sandboxUnavailableDiagnostic(def, options.where, failure, def.sandboxProbe.optOut, options.machineKey) };
}
