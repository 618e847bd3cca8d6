/**
 * Detection: for every def, in parallel and fault-isolated, resolve the executable a run would spawn, run its
 * version probe, then its help (capabilities), model-discovery, auth and compatibility probes concurrently, and
 * report one AgentInfo. One broken CLI yields one unavailable entry; it never empties the list.
 */
import { permissionModesOf } from "./permission-modes.ts";
import { existsSync } from "node:fs";
import type { AgentDiagnostic, AgentInfo, AgentProbeTimings } from "../contracts/agents.ts";
import type { LastGoodDetection } from "../contracts/agent-detection.ts";
import type { ProbeTimeouts } from "../contracts/probe-timeouts.ts";
import { type EnvMap, type ProbeRun, type RuntimeAgentDef, type RuntimeModelOption, resolveDefTransport } from "./types.ts";
import { binOverrideEnvVar, statFileWithDirCache, type FileState } from "./executables.ts";
import { launchArgv, resolveAgentLaunch, type AgentLaunch } from "./launch.ts";
import { runProbe as realRunProbe, type ProbeResult, type ProbeRunner } from "./probe.ts";
import { probeBudgetsFor, runWithRetry, type ProbeBudgets } from "./probe-budgets.ts";
import { capabilitiesAfterTimeout, HIDDEN_FLAG_PROBE_VALUE, hiddenFlagSupported, parseCapabilities } from "./capabilities.ts";
import { authClassifierId, authFromEnv, classifyAuthProbe, type AuthResult } from "./auth.ts";
import * as diag from "./diagnostics.ts";
import { agentChildEnv } from "./env.ts";
import { probeSandbox, type SandboxProbeResult } from "./sandbox-probe.ts";
import { LOCAL_MACHINE_KEY } from "../machines/local-machine.ts";
import { sameExecutable, stampExecutable, type ExecutableStamp } from "./executable-stamp.ts";
import { withDefaultModel } from "./defs/shared.ts";

/** ACP handshake-based model discovery (provided by protocols/acp). */
export type AcpModelDiscoverer = (options: {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  timeoutMs?: number;
}) => Promise<Array<{ id: string; label: string }> | null>;

/** Everything detection reads from the outside world; tests inject fakes. */
export type DetectionDeps = {
  env: EnvMap;
  platform?: NodeJS.Platform;
  homeDir?: string;
  statFile?: (path: string) => FileState;
  fileExists?: (path: string) => boolean;
  runProbe?: ProbeRunner;
  discoverAcpModels?: AcpModelDiscoverer;
  /** Folder ACP discovery opens its throwaway session in. */
  probeCwd?: string;
  timeouts?: ProbeTimeouts;
  /** What the user configured for an agent (app-config `agentCliEnv`): probes see it, as the agent's runs do. */
  configuredEnv?: (agentId: string) => Record<string, string> | undefined;
  /** What the user configured for a machine (app-config `machineEnv`, by machine key): detection there gets it. */
  machineEnv?: (machineKey: string) => Record<string, string> | undefined;
  /** The probe limits the user gave a machine (app-config `machineProbeTimeouts`): they win over `timeouts` there. */
  machineProbeTimeouts?: (machineKey: string) => ProbeTimeouts | undefined;
  /**
   * The agent's last complete detection: capabilities a timed-out probe could not confirm are taken from it rather
   * than dropped.
   */
  lastGood?: (agentId: string) => (Pick<LastGoodDetection, "capabilities"> & Partial<LastGoodDetection>) | undefined;
  /** Aborting kills every probe still running and makes the rest give up at once (nobody wants the answer). */
  signal?: AbortSignal;
  /**
   * Detect on another machine or in a container: each def's launch (its bare name, found on the remote PATH, and
   * the environment a remote run sends) instead of resolving an executable here. `runProbe` then runs it there.
   */
  remote?: { launch(def: RuntimeAgentDef): AgentLaunch; where: string; key: string };
  /**
   * Only what starting a run needs (availability and capabilities): no auth probe and no model discovery, which
   * can take seconds (opencode lists models over the network). `od run` uses this.
   */
  forRun?: boolean;
  /**
   * With `forRun`: the run names a model, which is checked against the models the CLI lists (`od run --model`). Its
   * CLI's models are discovered, and the last probe of the same executable is reused only when it has them.
   */
  forRunWithModel?: boolean;
};

/** One def's detection result: the wire info plus what arg builders and model validation need in process. */
export type DetectedAgent = {
  info: AgentInfo;
  capabilities: Record<string, boolean>;
  liveModels: RuntimeModelOption[] | null;
  /** The executable as it was before it was probed (absent when it could not be read). */
  executable?: ExecutableStamp;
  /** Taken from the last-good result of this very executable, without probing (`od run`): nothing new to keep. */
  reused?: boolean;
};

const HELP_MAX_BYTES = 4 * 1024 * 1024;
const MODELS_MAX_BYTES = 8 * 1024 * 1024;
/** Spawn failures and shell exit codes that mean "the OS could not run this file". */
const NOT_INVOCABLE_CODES = new Set(["ENOENT", "EACCES", "ENOTDIR"]);
const NOT_INVOCABLE_EXITS = new Set([126, 127]);

/** The probe limits on the machine `machineKey`: the caller's, then the ones the user gave that machine. */
export function timeoutsOn(deps: Pick<DetectionDeps, "timeouts" | "machineProbeTimeouts">, machineKey: string): ProbeTimeouts {
  return { ...deps.timeouts, ...deps.machineProbeTimeouts?.(machineKey) };
}

/** What is known of a def before any probe: its static facts, unavailable, fallback models. */
export function baseAgentInfo(def: RuntimeAgentDef, env: EnvMap): AgentInfo {
  const transport = resolveDefTransport(def, env);
  const info: AgentInfo = {
    id: def.id,
    name: def.name,
    bin: def.bin,
    available: false,
    state: "unavailable",
    version: null,
    diagnostics: [],
    models: def.fallbackModels.length ? def.fallbackModels : withDefaultModel([]),
    modelsSource: "fallback",
    streamFormat: transport.streamFormat,
    capabilities: {},
    permissionModes: permissionModesOf(def, env),
    probeMs: {},
  };
  if (transport.eventParser) info.eventParser = transport.eventParser;
  if (def.reasoningOptions) info.reasoningOptions = def.reasoningOptions;
  if (def.supportsImagePaths !== undefined) info.supportsImagePaths = def.supportsImagePaths;
  if (def.externalMcpInjection) info.externalMcpInjection = def.externalMcpInjection;
  if (def.supportsCustomModel !== undefined) info.supportsCustomModel = def.supportsCustomModel;
  if (def.installUrl) info.installUrl = def.installUrl;
  if (def.docsUrl) info.docsUrl = def.docsUrl;
  return info;
}

function firstLine(text: string): string | null {
  const line = text.split(/\r?\n/).find((candidate) => candidate.trim());
  return line ? line.trim() : null;
}

function policyAccepts(def: RuntimeAgentDef, version: string): boolean {
  const policy = def.versionPolicy;
  if (!policy) return true;
  return policy.supportedVersions.includes(version) || Boolean(policy.supportedVersionPattern?.test(version));
}

/** A probe result as the `ProbeOutput` defs see (null when it did not run to completion). */
function asOutput(result: ProbeResult): { stdout: string; stderr: string; exitCode: number | null } | null {
  return result.kind === "exited" ? { stdout: result.stdout, stderr: result.stderr, exitCode: result.code } : null;
}

type Probing = { def: RuntimeAgentDef; launch: AgentLaunch; deps: DetectionDeps; run: ProbeRunner; timeouts: ProbeBudgets };

async function probeCapabilities(p: Probing): Promise<{ caps: Record<string, boolean>; ms?: number; diagnostic?: AgentDiagnostic }> {
  const { def, launch, run } = p;
  const flags = def.capabilityFlags ?? {};
  const hidden = def.hiddenCapabilityFlags;
  if (!def.helpArgs && !hidden) return { caps: {} };
  const started = performance.now();
  const helpArgs = def.helpArgs;
  const hiddenEntries = hidden ? Object.entries(hidden.flags) : [];
  // The hidden-flag probes do not read the help text, so they run beside it rather than after it.
  const [help, hiddenResults] = await Promise.all([
    helpArgs ? runWithRetry(run, launchArgv(launch, helpArgs), { env: launch.env, timeoutMs: p.timeouts.helpMs, maxBytes: HELP_MAX_BYTES, signal: p.deps.signal }) : undefined,
    Promise.all(
      hiddenEntries.map(([flag]) =>
        run(launchArgv(launch, [...(hidden?.probeArgsPrefix ?? []), flag, HIDDEN_FLAG_PROBE_VALUE]), { env: launch.env, timeoutMs: p.timeouts.helpMs }),
      ),
    ),
  ]);
  const lastGood = p.deps.lastGood?.(def.id)?.capabilities ?? {};
  let caps: Record<string, boolean> = {};
  let diagnostic: AgentDiagnostic | undefined;
  if (help && helpArgs) {
    if (help.kind === "timeout") diagnostic = diag.probeTimeoutDiagnostic(def, "help", helpArgs, p.timeouts.helpMs * 2);
    if (help.kind !== "spawn-error") caps = parseCapabilities(`${help.stdout}\n${help.stderr}`, flags);
    if (help.kind === "timeout") caps = capabilitiesAfterTimeout(caps, lastGood, Object.values(flags));
  }
  hiddenEntries.forEach(([, key], index) => {
    const result = hiddenResults[index];
    // Timed out: no answer either way, so the last complete detection's (or unknown), never "absent".
    if (result?.kind === "timeout") {
      if (lastGood[key] !== undefined) caps[key] = lastGood[key];
      return;
    }
    caps[key] = result?.kind === "exited" && hiddenFlagSupported(`${result.stdout}\n${result.stderr}`);
  });
  return { caps, ms: Math.round(performance.now() - started), ...(diagnostic ? { diagnostic } : {}) };
}

/** Whether the def's CLI lists its models (a run's model is then checked against them, not the def's own list). */
function discoversModels(def: RuntimeAgentDef): boolean {
  return !!(def.fetchModels || def.listModels || def.acpModelDiscovery);
}

async function probeModels(p: Probing): Promise<{ models: RuntimeModelOption[] | null; ms?: number }> {
  const { def, launch, run, deps } = p;
  const started = performance.now();
  const done = (models: RuntimeModelOption[] | null) => ({ models: models?.length ? models : null, ms: Math.round(performance.now() - started) });
  const modelsTimeout = (own: number | undefined) => def.probeTimeouts?.modelsMs ?? own ?? p.timeouts.modelsMs;
  if (def.fetchModels) {
    const probeRun: ProbeRun = async (args, options = {}) =>
      asOutput(await run(launchArgv(launch, args), { env: launch.env, timeoutMs: modelsTimeout(options.timeoutMs), maxBytes: options.maxBytes ?? MODELS_MAX_BYTES }));
    return done(await def.fetchModels(probeRun, launch.env).catch(() => null));
  }
  if (def.listModels) {
    const { args, timeoutMs, maxBytes, parse } = def.listModels;
    const output = asOutput(await run(launchArgv(launch, args), { env: launch.env, timeoutMs: modelsTimeout(timeoutMs), maxBytes: maxBytes ?? MODELS_MAX_BYTES }));
    if (!output || output.exitCode !== 0) return done(null);
    try {
      return done(parse(output.stdout));
    } catch {
      return done(null);
    }
  }
  if (def.acpModelDiscovery && deps.discoverAcpModels) {
    const argv = launchArgv(launch, def.buildArgs("", [], [], {}, { env: deps.env, platform: deps.platform }));
    const found = await deps
      .discoverAcpModels({ argv, env: launch.env, cwd: deps.probeCwd ?? process.getBuiltinModule("node:os").tmpdir(), timeoutMs: modelsTimeout(def.acpModelDiscovery.timeoutMs) })
      .catch(() => null);
    return done(found?.length ? withDefaultModel(found.map(({ id, label }) => ({ id, label }))) : null);
  }
  return { models: null };
}

async function probeAuth(p: Probing): Promise<{ auth?: AuthResult; ms?: number }> {
  const { def, launch, run } = p;
  if (!def.authProbe) return {};
  if (authFromEnv(authClassifierId(def), launch.env)) return { auth: { status: "ok" }, ms: 0 };
  const result = await run(launchArgv(launch, def.authProbe.args), {
    env: launch.env,
    timeoutMs: def.probeTimeouts?.authMs ?? def.authProbe.timeoutMs ?? p.timeouts.authMs,
    maxBytes: 1024 * 1024,
  });
  return { auth: classifyAuthProbe(def, result), ms: result.ms };
}

async function probeCompatibility(p: Probing): Promise<{ failure?: string; ms?: number }> {
  const { def, launch, run, deps } = p;
  const probe = def.compatibilityProbe;
  if (!probe) return {};
  const fileExists = deps.fileExists ?? existsSync;
  if (probe.preflight && !probe.preflight({ env: launch.env, fileExists })) return { failure: "The od profile is not installed yet." };
  const result = await run(launchArgv(launch, probe.args), { env: launch.env, timeoutMs: probe.timeoutMs ?? 10_000 });
  if (result.kind !== "exited" || result.code !== 0) {
    const why = result.kind === "timeout" ? "timed out" : result.kind === "spawn-error" ? result.code : `exited ${result.code}`;
    return { failure: `\`${def.bin} ${probe.args.join(" ")}\` ${why}.`, ms: result.ms };
  }
  try {
    return probe.parse(result.stdout) ? { ms: result.ms } : { failure: "The profile did not report a compatible protocol.", ms: result.ms };
  } catch (error) {
    return { failure: `The profile is incompatible: ${(error as Error).message}`, ms: result.ms };
  }
}

/**
 * Model discovery, after the compatibility handshake when the def has one: DSH's `--profile open-design --models`
 * against a missing profile would create it, and an incompatible profile's model list means nothing.
 */
async function probeModelsWhenCompatible(p: Probing): Promise<{ compatibility: { failure?: string; ms?: number }; models: { models: RuntimeModelOption[] | null; ms?: number } }> {
  if (!p.def.compatibilityProbe) return { compatibility: {}, models: await probeModels(p) };
  const compatibility = await probeCompatibility(p);
  return { compatibility, models: compatibility.failure ? { models: null } : await probeModels(p) };
}

/** The runner with the pass's abort signal added to every probe. */
function withSignal(run: ProbeRunner, signal: AbortSignal | undefined): ProbeRunner {
  return signal ? (argv, options) => run(argv, { ...options, signal }) : run;
}

/** Detect one def. Never throws for anything a CLI can do. */
export async function detectAgent(def: RuntimeAgentDef, deps: DetectionDeps): Promise<DetectedAgent> {
  const env = deps.env;
  const platform = deps.platform ?? process.platform;
  const info = baseAgentInfo(def, env);
  const timeouts = probeBudgetsFor(def, timeoutsOn(deps, deps.remote?.key ?? LOCAL_MACHINE_KEY));
  const run = withSignal(deps.runProbe ?? realRunProbe, deps.signal);
  const resolved = deps.remote ? { ok: true as const, launch: deps.remote.launch(def) } : resolveAgentLaunch(def, { env, platform, homeDir: deps.homeDir, statFile: deps.statFile });
  if (!resolved.ok) {
    const resolution = resolved.resolution;
    if (!resolution.found && resolution.invalidOverride) {
      info.diagnostics.push(diag.invalidOverrideDiagnostic(def, resolution.invalidOverride.envVar, resolution.invalidOverride.value));
    } else {
      info.diagnostics.push(diag.notInstalledDiagnostic(def, resolution.searchedDirs, binOverrideEnvVar(def)));
    }
    return { info, capabilities: {}, liveModels: null };
  }
  if (!deps.remote) info.path = resolved.launch.path;
  // Stamped before probing (a local executable only): a file replaced while it is probed differs next time, and is
  // probed again.
  const executable = deps.remote ? undefined : stampExecutable(resolved.launch.path);
  if (deps.forRun && executable) {
    // A run needs what the last probe of this same executable found: three CLI processes fewer before it starts.
    // A run that names a model needs its models too, when the CLI lists any: a probe that found them (a whole pass,
    // or an earlier such run) has them.
    const lastGood = deps.lastGood?.(def.id);
    const hasWhatRunNeeds = !deps.forRunWithModel || !discoversModels(def) || !!lastGood?.liveModels;
    if (lastGood?.info && sameExecutable(lastGood.executable, executable) && hasWhatRunNeeds) {
      return { info: lastGood.info, capabilities: lastGood.capabilities, liveModels: lastGood.liveModels ?? null, executable, reused: true };
    }
  }
  // Executable lookup uses the daemon's env, as a run's does; the probes get the env a run's child gets (built only
  // here: a run that reuses the last probe needs neither it nor the configured env it reads from the database).
  const launch: AgentLaunch = deps.remote ? resolved.launch : { ...resolved.launch, env: agentChildEnv(def, env, deps.configuredEnv?.(def.id)) };

  const version = await runWithRetry(run, launchArgv(launch, def.versionArgs), {
    env: launch.env,
    timeoutMs: timeouts.versionMs,
    maxBytes: 64 * 1024,
    signal: deps.signal,
  });
  info.probeMs.version = version.ms;
  if (version.kind === "spawn-error" && NOT_INVOCABLE_CODES.has(version.code)) {
    info.diagnostics.push(diag.notInvocableDiagnostic(def, launch.path, `The OS refused to start it (${version.code}).`));
    return { info, capabilities: {}, liveModels: null };
  }
  if (deps.remote && version.kind === "exited" && version.code === 127) {
    info.diagnostics.push(diag.notInstalledRemotelyDiagnostic(def, deps.remote.where));
    return { info, capabilities: {}, liveModels: null };
  }
  if (version.kind === "exited" && version.code !== null && NOT_INVOCABLE_EXITS.has(version.code)) {
    const detail = firstLine(version.stderr) ?? `exit code ${version.code}`;
    info.diagnostics.push(diag.notInvocableDiagnostic(def, launch.path, `It exited ${version.code} (${detail}); a shim may point at a removed install.`));
    return { info, capabilities: {}, liveModels: null };
  }
  if (version.kind === "timeout") info.diagnostics.push(diag.probeTimeoutDiagnostic(def, "version", def.versionArgs, timeouts.versionMs * 2));
  // Some CLIs (pi 0.73) print their version on stderr.
  const raw = version.kind === "exited" && version.code === 0 ? (firstLine(version.stdout) ?? firstLine(version.stderr)) : null;
  if (raw && def.versionPolicy?.parse) info.version = def.versionPolicy.parse(raw);
  else info.version = raw && def.parseVersion ? (def.parseVersion(raw) ?? raw) : raw;
  if (def.versionPolicy && (!info.version || !policyAccepts(def, info.version))) {
    info.diagnostics.push(diag.versionUntestedDiagnostic(def, info.version, def.versionPolicy.supportedVersions));
  }

  const probing: Probing = { def, launch, deps: { ...deps, platform }, run, timeouts };
  const settingsEnv = { ...env, ...deps.machineEnv?.(deps.remote?.key ?? LOCAL_MACHINE_KEY) };
  const where = { where: deps.remote?.where ?? "this machine", machineKey: deps.remote?.key ?? LOCAL_MACHINE_KEY };
  const [help, auth, { compatibility, models }, sandbox] = await Promise.all([
    probeCapabilities(probing),
    deps.forRun ? ({} as Awaited<ReturnType<typeof probeAuth>>) : probeAuth(probing),
    deps.forRun && !deps.forRunWithModel && !def.compatibilityProbe
      ? ({ compatibility: {}, models: { models: null } } as Awaited<ReturnType<typeof probeModelsWhenCompatible>>)
      : probeModelsWhenCompatible(probing),
    deps.forRun ? ({} as SandboxProbeResult) : probeSandbox(def, launch, run, { settingsEnv, ...where, timeoutMs: timeouts.helpMs, signal: deps.signal }),
  ]);
  const timings: AgentProbeTimings = info.probeMs;
  if (help.ms !== undefined) timings.help = help.ms;
  if (models.ms !== undefined) timings.models = models.ms;
  if (auth.ms !== undefined) timings.auth = auth.ms;
  if (compatibility.ms !== undefined) timings.compatibility = compatibility.ms;
  if (sandbox.ms !== undefined) timings.sandbox = sandbox.ms;
  if (help.diagnostic) info.diagnostics.push(help.diagnostic);
  if (sandbox.diagnostic) info.diagnostics.push(sandbox.diagnostic);
  info.capabilities = help.caps;
  if (models.models) {
    info.models = models.models;
    info.modelsSource = "live";
  }
  if (auth.auth) {
    info.authStatus = auth.auth.status;
    if (auth.auth.message) info.authMessage = auth.auth.message;
    if (auth.auth.status !== "ok") info.diagnostics.push(diag.authDiagnostic(def, auth.auth.status, auth.auth.message ?? ""));
  }
  if (compatibility.failure) {
    info.diagnostics.push(diag.setupRequiredDiagnostic(def, compatibility.failure));
    info.state = "setup-required";
  } else {
    info.state = "available";
    info.available = true;
  }
  return { info, capabilities: help.caps, liveModels: models.models, ...(executable ? { executable } : {}) };
}
