/**
 * Detection where the agent runs: the same defs, probes, timeouts and diagnostics as on this machine, each probe
 * run through ssh or docker exec with the environment a remote run would send (on stdin, as runs do). One quick
 * reachability check comes first, so an unreachable host is one typed diagnostic per agent, fast, not a pass of
 * timeouts. location-detections.ts runs the passes and keeps their results.
 */
import type { AgentInfo } from "../contracts/agents.ts";
import { baseAgentInfo, type DetectionDeps } from "../runtimes/detection.ts";
import { remoteUnreachableDiagnostic } from "../runtimes/diagnostics.ts";
import { runProbe, type ProbeRunner } from "../runtimes/probe.ts";
import { RUN_COOKIE_VAR, remoteAgentEnv } from "../runtimes/env.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";
import { describeLocation, type RemoteLocation } from "../machines/machine-url.ts";
import { clientEnv, remoteArgvOptions, type RemoteContext } from "../machines/remote-exec.ts";
import { sweepRemoteRun } from "../machines/remote-launch.ts";
import { remoteAgentLaunch } from "./remote-run-inputs.ts";
import { LAUNCH_SCRIPT } from "../machines/remote-scripts.ts";
import { scriptFraming } from "../machines/script-framing.ts";
import { inSessionTurn } from "../machines/session-slots.ts";
import { remoteShellArgv } from "../machines/transport-argv.ts";

/**
 * A ProbeRunner that runs each probe's argv on `location`, in the remote user's home folder. Each probe carries a
 * cookie of its own: killing the local client at the timeout would leave a hung CLI running there, so a probe that
 * did not exit by itself is swept there too.
 */
export function remoteProbeRunner(location: RemoteLocation, context: RemoteContext): ProbeRunner {
  const options = remoteArgvOptions(context);
  return async (argv, probe) => {
    const cookie = `probe-${crypto.randomUUID()}`;
    const env = Object.fromEntries(Object.entries(probe.env ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
    // A turn on the host's connection for the probe only: the sweep after it takes one of its own.
    const result = await inSessionTurn(location, () =>
      runProbe(remoteShellArgv(location, options), {
        ...probe,
        env: clientEnv(context.env),
        stdinText: scriptFraming(LAUNCH_SCRIPT, [".", ...argv], { env: { ...env, [RUN_COOKIE_VAR]: cookie } }),
      }),
    );
    if (result.kind === "timeout" || (result.kind === "exited" && result.truncated)) await sweepRemoteRun(location, cookie, 0, context);
    return result;
  };
}

/** Every def as unavailable with one `remote-unreachable` diagnostic naming the location. */
export function unreachableInfos(location: RemoteLocation, defs: readonly RuntimeAgentDef[], env: DetectionDeps["env"], why: string): AgentInfo[] {
  const where = describeLocation(location);
  return defs.map((def) => ({ ...baseAgentInfo(def, env), diagnostics: [remoteUnreachableDiagnostic(where, why)] }));
}

/**
 * The deps of a detection pass on `location`: this machine's probe limits and per-agent env, each def launched by
 * its bare name there with the environment a remote run sends. Only what applies there is taken: model discovery
 * over ACP and executable stamps are this machine's.
 */
export function remoteDetectionDeps(
  location: RemoteLocation,
  deps: Pick<DetectionDeps, "env" | "configuredEnv" | "timeouts" | "forRun" | "lastGood">,
  context: RemoteContext,
): DetectionDeps {
  const launch = (def: RuntimeAgentDef) => {
    const { [RUN_COOKIE_VAR]: _cookie, ...env } = remoteAgentEnv(def, deps.env, deps.configuredEnv?.(def.id), "");
    return { ...remoteAgentLaunch(def), env };
  };
  return {
    env: deps.env,
    ...(deps.configuredEnv ? { configuredEnv: deps.configuredEnv } : {}),
    ...(deps.timeouts ? { timeouts: deps.timeouts } : {}),
    ...(deps.forRun ? { forRun: true } : {}),
    ...(deps.lastGood ? { lastGood: deps.lastGood } : {}),
    runProbe: remoteProbeRunner(location, context),
    remote: { launch, where: describeLocation(location) },
  };
}
