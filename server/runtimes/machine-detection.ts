/**
 * Detection on another machine: the same defs, probes, timeouts and diagnostics as on this one, each probe run
 * there (Machine.commandLine) with the environment a run there would get (on stdin, as runs do). One quick
 * reachability check comes first, so an unreachable machine is one typed diagnostic per agent, fast, not a pass of
 * timeouts. machine-detections.ts runs the passes and keeps their results.
 */
import type { AgentInfo } from "../contracts/agents.ts";
import type { Machine } from "../machines/machine.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import type * as RemoteRunInputs from "../remote/remote-run-inputs.ts";
import { baseAgentInfo, type DetectionDeps } from "./detection.ts";
import { remoteUnreachableDiagnostic } from "./diagnostics.ts";
import { RUN_COOKIE_VAR, remoteAgentEnv } from "./env.ts";
import { runProbe, type ProbeRunner } from "./probe.ts";
import type { RuntimeAgentDef } from "./types.ts";

/** How an agent starts on another machine, evaluated when detection first reaches one. */
const remoteRunInputs = loadOnFirstUse<typeof RemoteRunInputs>(import.meta.url, "../remote/remote-run-inputs.ts", () => require("../remote/remote-run-inputs.ts"));

/**
 * A ProbeRunner that runs each probe's argv on `machine`, in its user's home folder. Each probe carries a cookie of
 * its own: killing the local client at the timeout would leave a hung CLI running there, so a probe that did not
 * exit by itself is swept there too.
 */
export function machineProbeRunner(machine: Machine): ProbeRunner {
  return async (argv, probe) => {
    const cookie = `probe-${crypto.randomUUID()}`;
    const env = Object.fromEntries(Object.entries(probe.env ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const line = machine.commandLine(argv, env, cookie);
    // A turn on the machine for the probe only: the sweep after it takes one of its own.
    const result = await machine.inTurn(() => runProbe(line.argv, { ...probe, env: line.env, ...(line.stdinText !== undefined ? { stdinText: line.stdinText } : {}) }));
    if (result.kind === "timeout" || (result.kind === "exited" && result.truncated)) await machine.sweepCookie(cookie);
    return result;
  };
}

/** Every def as unavailable with one `remote-unreachable` diagnostic naming the machine. */
export function unreachableInfos(machine: Machine, defs: readonly RuntimeAgentDef[], env: DetectionDeps["env"], why: string): AgentInfo[] {
  const where = machine.label;
  return defs.map((def) => ({ ...baseAgentInfo(def, env), diagnostics: [remoteUnreachableDiagnostic(where, why)] }));
}

/**
 * The deps of a detection pass on `machine`: this machine's probe limits and per-agent env, each def launched by
 * its bare name there with the environment a run there gets. Only what applies there is taken: model discovery
 * over ACP and executable stamps are this machine's.
 */
export function machineDetectionDeps(
  machine: Machine,
  deps: Pick<DetectionDeps, "env" | "configuredEnv" | "machineEnv" | "machineProbeTimeouts" | "timeouts" | "forRun" | "forRunWithModel" | "lastGood">,
): DetectionDeps {
  // The machine's own settings, then the agent's (which win).
  const configuredEnv = (id: string) => ({ ...deps.machineEnv?.(machine.key), ...deps.configuredEnv?.(id) });
  const launch = (def: RuntimeAgentDef) => {
    const { [RUN_COOKIE_VAR]: _cookie, ...env } = remoteAgentEnv(def, deps.env, configuredEnv(def.id), "");
    return { ...remoteRunInputs().remoteAgentLaunch(def), env };
  };
  return {
    env: deps.env,
    configuredEnv,
    ...(deps.machineEnv ? { machineEnv: deps.machineEnv } : {}),
    ...(deps.machineProbeTimeouts ? { machineProbeTimeouts: deps.machineProbeTimeouts } : {}),
    ...(deps.timeouts ? { timeouts: deps.timeouts } : {}),
    ...(deps.forRun ? { forRun: true } : {}),
    ...(deps.forRunWithModel ? { forRunWithModel: true } : {}),
    ...(deps.lastGood ? { lastGood: deps.lastGood } : {}),
    runProbe: machineProbeRunner(machine),
    remote: { launch, where: machine.label, key: machine.key },
  };
}
