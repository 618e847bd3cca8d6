/**
 * "Does this agent work?": runs the agent for real on a tiny prompt in a scratch folder (under the data dir here, a
 * private temp folder on another machine), with the run machinery (its place on the machine, invocation, filtered
 * env, runAttempt with its watchdog and cancel ladder, judgeAttempt) but no project, conversation or message. On the
 * machine asked for (`location`), where what detection found there decides. Always answers with a result, never
 * throws for the agent's or the machine's failures.
 */
import { transportFacts } from "./transport-facts.ts";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AppConfig } from "../contracts/app-config.ts";
import type { ConnectionTestKind, ConnectionTestRequest, ConnectionTestResult } from "../contracts/connection-test.ts";
import { buildInvocation, readerFor, type Invocation } from "../runtimes/invocation.ts";
import { launchArgv, resolveAgentLaunch, type AgentLaunch } from "../runtimes/launch.ts";
import { resolveDefTransport, type EnvMap, type RuntimeAgentDef } from "../runtimes/types.ts";
import { newId } from "../store/ids.ts";
import { dataPaths } from "../paths.ts";
import { PRIVATE_DIR_MODE } from "../private-data-dir.ts";
import { runAttempt, type AttemptOutcome } from "./attempt.ts";
import { judgeAttempt, type RunEnding } from "./outcome.ts";
import type { AgentDirectory } from "./run-service.ts";
import { resolveRunTimeouts } from "./timeouts.ts";
import { OdError } from "../errors.ts";
import { LocalMachine } from "../machines/local-machine.ts";
import type { Machine } from "../machines/machine.ts";
import { LocationError, parseMachineLocation } from "../machines/machine-url.ts";
import { RemoteStaging } from "../machines/remote-staging.ts";
import type { MachineDetections } from "../runtimes/machine-detections.ts";
import { detectedOn, directoryDetection, type DetectedAgents } from "./detected-agents.ts";
import { runPlaceOf } from "./run-place-of.ts";

/** The prompt every connection test sends. */
export const CONNECTION_TEST_PROMPT = "Reply with the single word OK.";

/** A test that has not produced output in this long is stopped (the user is waiting on a dialog). */
export const CONNECTION_TEST_FIRST_OUTPUT_MS = 60_000;

// The wire shapes live with the other contracts; re-exported for the route module and the UI.
export { ConnectionTestKind, ConnectionTestRequest, ConnectionTestResult } from "../contracts/connection-test.ts";


export type ConnectionTestDeps = {
  defs: readonly RuntimeAgentDef[];
  agents: AgentDirectory;
  /** The daemon's environment (the child gets a filtered copy). */
  env: EnvMap;
  /** Scratch folders are made (and removed) under `<dataDir>/connection-tests/`. */
  dataDir: string;
  /** Current preferences: saved model choice and the agent's configured env. */
  appConfig: () => AppConfig;
  platform?: NodeJS.Platform;
  /** Watchdog overrides (tests); defaults: 60 s to first output, the run inactivity limit, the run cancel grace. */
  timeouts?: { firstOutputMs?: number; inactivityMs?: number; cancelGraceMs?: number };
  resolveLaunch?: (def: RuntimeAgentDef) => AgentLaunch | undefined;
  /** Other machines: how a URL is reached, and what detection found there (the catalog's). Absent: this machine only. */
  machines?: { at(url: string): Machine; detections: MachineDetections };
};

const MAX_DETAIL_CHARS = 500;

export async function testConnection(deps: ConnectionTestDeps, request: ConnectionTestRequest, signal?: AbortSignal): Promise<ConnectionTestResult> {
  const started = Date.now();
  const def = deps.defs.find((d) => d.id === request.agentId);
  if (!def) return { ok: false, kind: "config", latencyMs: 0, detail: `unknown agent '${request.agentId}'` };
  const saved = deps.appConfig().agentModels?.[def.id];
  const model = pick(request.model, saved?.model);
  const reasoning = pick(request.reasoning, saved?.reasoning);
  const base = { agentName: def.name, ...(model ? { model } : {}) };
  const fail = (kind: ConnectionTestKind, detail: string): ConnectionTestResult => ({ ok: false, kind, latencyMs: Date.now() - started, ...base, detail });

  if (model && (/\s/.test(model) || model.length > 200)) return fail("invalid_model_id", `'${model}' is not a valid model id`);
  let machine: Machine = new LocalMachine(deps.env);
  let detected: DetectedAgents;
  try {
    if (request.location !== undefined) {
      parseMachineLocation(request.location);
      if (!deps.machines) return fail("config", "this od tests agents on this machine only");
      machine = deps.machines.at(request.location);
    }
    detected = deps.machines ? await detectedOn(machine, deps.agents, deps.machines.detections) : { agents: await deps.agents.list(), ...directoryDetection(deps.agents) };
  } catch (error) {
    if (error instanceof LocationError) return fail("config", error.message);
    if (error instanceof OdError) return fail(error.kind === "machine_timeout" ? "timeout" : "upstream", error.message);
    throw error;
  }
  const known = detected.liveModels(def.id) ?? def.fallbackModels;
  if (model && def.supportsCustomModel === false && !known.some((m) => m.id === model)) {
    return fail("invalid_model_id", `${def.name} has no model '${model}' (choose one of: ${known.map((m) => m.id).join(", ")})`);
  }
  const info = detected.agents.find((i) => i.id === def.id);
  const on = detected.where ? ` on ${detected.where}` : "";
  if (info?.state === "setup-required") return fail("config", info.diagnostics[0]?.message ?? `${def.name} needs setup first`);
  if (detected.where && info?.state !== "available") return fail("not_installed", `${def.name} is not available${on}${info?.diagnostics[0] ? `: ${info.diagnostics[0].message}` : ""}`);

  const testId = newId("conn");
  let scratch: ScratchFolder;
  try {
    scratch = await scratchFolderOn(machine, deps.dataDir, testId);
  } catch (error) {
    return fail("upstream", `no scratch folder could be made${on}: ${(error as Error).message}`);
  }
  const place = runPlaceOf({ machine, folder: scratch.path }, { env: deps.env, machineEnv: deps.appConfig().machineEnv?.[machine.key] ?? {}, resolveLaunch: deps.resolveLaunch ?? ((d) => defaultLaunch(d, deps)) });
  const launch = place.agentLaunch(def);
  if (!launch) {
    await scratch.remove();
    return fail("not_installed", `${def.name} is not installed (or not on the PATH od sees)`);
  }
  try {
    let invocation: Invocation;
    try {
      readerFor(resolveDefTransport(def, place.settingsEnv));
      invocation = buildInvocation(def, {
        prompt: CONNECTION_TEST_PROMPT,
        imagePaths: [],
        extraAllowedDirs: [],
        options: { model, reasoning },
        context: {
          cwd: scratch.path,
          resumeSessionId: null,
          capabilities: detected.capabilities(def.id),
          liveModels: detected.liveModels(def.id),
          platform: deps.platform ?? process.platform,
          env: place.settingsEnv,
          hasPriorAssistantTurn: false,
          ...(def.promptViaFile ? { promptFilePath: `${scratch.path}/${PROMPT_FILE}` } : {}),
        },
        env: place.settingsEnv,
      });
    } catch (error) {
      return fail("config", (error as Error).message);
    }
    if (def.promptViaFile) await machine.writeFile(scratch.path, PROMPT_FILE, new TextEncoder().encode(invocation.promptFileContent ?? CONNECTION_TEST_PROMPT));
    const runTimeouts = resolveRunTimeouts(deps.env, deps.timeouts?.cancelGraceMs === undefined ? {} : { cancelGraceMs: deps.timeouts.cancelGraceMs });
    const outcome = await runAttempt({
      runId: testId,
      // The reply is the test's detail.
      collectText: true,
      cwd: scratch.path,
      machineLabel: machine.label,
      start: machine.startAgent(
        {
          folder: scratch.path,
          argv: launchArgv(launch, invocation.args),
          env: place.agentEnv(def, deps.appConfig().agentCliEnv?.[def.id], testId),
          runId: testId,
          stdin: invocation.delivery.kind !== "argv",
        },
        // No clean-up record for a test: its processes there are swept now, and what a machine gone meanwhile keeps ends with it.
        async (runId) => {
          await machine.sweepCookie(runId);
          return { kind: "swept", pids: [] };
        },
      ),
      invocation,
      transportOptions: {
        cwd: scratch.path,
        prompt: CONNECTION_TEST_PROMPT,
        model,
        reasoning,
        imagePaths: [],
        mcpServers: [],
        resumeSessionId: null,
        def: transportFacts(def),
        env: place.settingsEnv,
        machine,
      },
      timeouts: {
        firstOutputMs: deps.timeouts?.firstOutputMs ?? Math.min(CONNECTION_TEST_FIRST_OUTPUT_MS, runTimeouts.firstOutputMs(def)),
        inactivityMs: deps.timeouts?.inactivityMs ?? Math.min(CONNECTION_TEST_FIRST_OUTPUT_MS, runTimeouts.inactivityMs(def)),
        cancelGraceMs: runTimeouts.cancelGraceMs,
      },
      signal: signal ?? new AbortController().signal,
      emit: () => undefined,
      onSpawn: () => undefined,
    });
    return resultOf(def, outcome, judgeAttempt(def.id, def.name, outcome), Date.now() - started, base);
  } finally {
    await scratch.remove();
  }
}

const PROMPT_FILE = "od-prompt.md";

/** A test's private folder, and how it is removed. */
type ScratchFolder = { path: string; remove(): Promise<void> };

/** Under the data dir on this machine (`connection-tests/`); a private temp folder (0700) on another. */
async function scratchFolderOn(machine: Machine, dataDir: string, id: string): Promise<ScratchFolder> {
  if (machine.kind !== "local") {
    const staging = await RemoteStaging.create(machine, id);
    return { path: staging.dir, remove: async () => void (await staging.remove()) };
  }
  const path = join(dataPaths(dataDir).connectionTests, id);
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  return { path, remove: async () => rmSync(path, { recursive: true, force: true }) };
}

/** Maps a judged attempt onto the connection-test answer. Pure. */
export function resultOf(
  def: Pick<RuntimeAgentDef, "name">,
  outcome: Pick<AttemptOutcome, "text">,
  ending: RunEnding,
  latencyMs: number,
  base: { agentName?: string; model?: string } = {},
): ConnectionTestResult {
  if (ending.status === "succeeded") return { ok: true, latencyMs, ...base, detail: clip(outcome.text.trim()) };
  const detail = clip([ending.reason, ending.guidance].filter(Boolean).join(" — ")) || `${def.name} failed`;
  return { ok: false, kind: kindOf(ending), latencyMs, ...base, detail };
}

/** The failure category, refined by its detail where the user's fix differs (install it, pick another model). */
export function kindOf(ending: Pick<RunEnding, "failureCategory" | "failureDetail">): ConnectionTestKind {
  if (ending.failureDetail === "cli_not_installed") return "not_installed";
  if (ending.failureDetail === "model_unavailable") return "invalid_model_id";
  switch (ending.failureCategory) {
    case "auth":
    case "quota":
    case "upstream":
    case "config":
    case "timeout":
      return ending.failureCategory;
    default:
      return "unknown";
  }
}

function pick(requested: string | null | undefined, saved: string | undefined): string | null {
  const value = requested === undefined ? saved : requested;
  return value && value !== "default" ? value : null;
}

function clip(text: string): string {
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS - 1)}…` : text;
}

function defaultLaunch(def: RuntimeAgentDef, deps: ConnectionTestDeps): AgentLaunch | undefined {
  const resolved = resolveAgentLaunch(def, { env: deps.env, platform: deps.platform ?? process.platform });
  return resolved.ok ? resolved.launch : undefined;
}

