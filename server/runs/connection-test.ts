/**
 * "Does this agent work?": runs the agent for real on a tiny prompt in a scratch folder under the data dir, with
 * the run machinery (invocation, filtered env, runAttempt with its watchdog and cancel ladder, judgeAttempt) but
 * no project, conversation or message. Always answers with a result, never throws for the agent's failures.
 */
import { transportFacts } from "./transport-facts.ts";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AppConfig } from "../contracts/app-config.ts";
import type { ConnectionTestKind, ConnectionTestRequest, ConnectionTestResult } from "../contracts/connection-test.ts";
import { spawnEnvForAgent } from "../runtimes/env.ts";
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
import { LocalMachine } from "../machines/local-machine.ts";

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
  const known = deps.agents.liveModels(def.id) ?? def.fallbackModels;
  if (model && def.supportsCustomModel === false && !known.some((m) => m.id === model)) {
    return fail("invalid_model_id", `${def.name} has no model '${model}' (choose one of: ${known.map((m) => m.id).join(", ")})`);
  }
  const launch = (deps.resolveLaunch ?? ((d) => defaultLaunch(d, deps)))(def);
  if (!launch) return fail("not_installed", `${def.name} is not installed (or not on the PATH od sees)`);
  const info = (await deps.agents.list()).find((i) => i.id === def.id);
  if (info?.state === "setup-required") return fail("config", info.diagnostics[0]?.message ?? `${def.name} needs setup first`);

  const testId = newId("conn");
  const scratch = join(dataPaths(deps.dataDir).connectionTests, testId);
  mkdirSync(scratch, { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    let invocation: Invocation;
    try {
      readerFor(resolveDefTransport(def, deps.env));
      invocation = buildInvocation(def, {
        prompt: CONNECTION_TEST_PROMPT,
        imagePaths: [],
        extraAllowedDirs: [],
        options: { model, reasoning },
        context: {
          cwd: scratch,
          resumeSessionId: null,
          capabilities: deps.agents.capabilities(def.id),
          liveModels: deps.agents.liveModels(def.id),
          platform: deps.platform ?? process.platform,
          env: deps.env,
          hasPriorAssistantTurn: false,
          ...(def.promptViaFile ? { promptFilePath: join(scratch, "od-prompt.md") } : {}),
        },
        env: deps.env,
      });
    } catch (error) {
      return fail("config", (error as Error).message);
    }
    if (def.promptViaFile) writeFileSync(join(scratch, "od-prompt.md"), invocation.promptFileContent ?? CONNECTION_TEST_PROMPT, { mode: 0o600 });
    const runTimeouts = resolveRunTimeouts(deps.env, deps.timeouts?.cancelGraceMs === undefined ? {} : { cancelGraceMs: deps.timeouts.cancelGraceMs });
    const outcome = await runAttempt({
      runId: testId,
      // The reply is the test's detail.
      collectText: true,
      cwd: scratch,
      start: new LocalMachine(deps.env).startAgent({
        folder: scratch,
        argv: launchArgv(launch, invocation.args),
        env: spawnEnvForAgent(def, deps.env, deps.appConfig().agentCliEnv?.[def.id], testId),
        runId: testId,
        stdin: invocation.delivery.kind !== "argv",
      }),
      invocation,
      transportOptions: {
        cwd: scratch,
        prompt: CONNECTION_TEST_PROMPT,
        model,
        reasoning,
        imagePaths: [],
        mcpServers: [],
        resumeSessionId: null,
        def: transportFacts(def),
        env: deps.env,
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
    rmSync(scratch, { recursive: true, force: true });
  }
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

