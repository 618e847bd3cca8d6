/**
 * A scriptable fake ACP agent (JSON-RPC 2.0 over NDJSON stdio) for transport and run-service tests.
 * Usage: `bun tests/fakes/acp-agent.ts <script.json>` or with the script JSON in `FAKE_ACP_SCRIPT`.
 * Every received frame is appended to `script.ledger` (JSONL) when set; `script.pidFile` receives our pid.
 *
 * Script: `{ initialize?, sessionNew?, sessionLoad?, setModel?, setConfigOption?, setMode?, prompt: Step[], continue?: Step[] }`
 * where each response entry is `{result}` or `{error}`, and a Step is one of
 *   {update}                  session/update notification (sessionId filled in)
 *   {raw}                     raw text written to stdout as is (malformed frames, partial lines)
 *   {bytewise}                a frame written one byte per write
 *   {request, expectOutcome?} server→client request; waits for its answer
 *   {gatedWrite: {toolCallId, path, content, refuse?}}  gemini's write_file behind a permission request: offers
 *                             proceed_always / proceed_once / cancel; an answer whose kind is in `refuse` fails the
 *                             tool with gemini's untrusted-folder message, any other allowing answer writes the file
 *   {result} | {error}        answer the prompt (or _session/continue)
 *   {waitForCancel: true}     block until session/cancel arrives
 *   {exit: code}              exit at once (a crash mid-turn)
 *   {sleep: ms}
 *   {requirePreviousGone: true}  error unless the process in pidFile (before us) is gone
 * `script.stayUpAfterEof`: the agent stays up when its stdin closes (as claude-code-acp and codex-acp do), until a
 * signal ends it.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Json = Record<string, unknown>;
type Step = Json;
type Script = {
  initialize?: Json;
  sessionNew?: Json;
  sessionLoad?: Json;
  setModel?: Json;
  setConfigOption?: Json;
  setMode?: Json;
  prompt?: Step[];
  continue?: Step[];
  ledger?: string;
  pidFile?: string;
  stayUpAfterEof?: boolean;
};

const script: Script = JSON.parse(process.argv[2]?.endsWith(".json") ? readFileSync(process.argv[2], "utf8") : (process.env.FAKE_ACP_SCRIPT ?? "{}"));
const previousPid = script.pidFile ? readPid(script.pidFile) : null;
if (script.pidFile) writeFileSync(script.pidFile, String(process.pid));

let sessionId = "fake-session-1";
let loaded = false;
let nextRequestId = 0;
const waiting = new Map<number | string, (frame: Json) => void>();
let cancelWaiter: (() => void) | null = null;
let cancelled = false;

function send(frame: Json): void {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...frame })}\n`);
}

function answer(id: unknown, entry: Json | undefined, fallback: unknown): void {
  if (entry && "error" in entry) send({ id, error: entry.error });
  else send({ id, result: entry && "result" in entry ? entry.result : fallback });
}

async function runSteps(id: unknown, steps: Step[]): Promise<void> {
  for (const step of steps) {
    if ("update" in step) send({ method: "session/update", params: { sessionId, update: step.update } });
    else if ("raw" in step) process.stdout.write(String(step.raw));
    else if ("bytewise" in step) {
      for (const byte of new TextEncoder().encode(`${JSON.stringify(step.bytewise)}\n`)) {
        await new Promise<void>((resolve) => process.stdout.write(new Uint8Array([byte]), () => resolve()));
      }
    } else if ("request" in step) {
      const requestId = nextRequestId++;
      const reply = new Promise<Json>((resolve) => waiting.set(requestId, resolve));
      send({ id: requestId, method: (step.request as Json).method, params: (step.request as Json).params });
      const frame = await reply;
      if (step.expectOutcome !== undefined) {
        const outcome = ((frame.result as Json | undefined)?.outcome as Json | undefined)?.outcome;
        if (outcome !== step.expectOutcome) return send({ id, error: { code: -32000, message: `unexpected outcome ${String(outcome)}` } });
      }
    } else if ("gatedWrite" in step) await gatedWrite(step.gatedWrite as Json);
    else if ("result" in step) return send({ id, result: step.result });
    else if ("error" in step) return send({ id, error: step.error });
    else if ("waitForCancel" in step) {
      if (!cancelled) await new Promise<void>((resolve) => (cancelWaiter = resolve));
    } else if ("exit" in step) process.exit(Number(step.exit));
    else if ("sleep" in step) await new Promise((resolve) => setTimeout(resolve, Number(step.sleep)));
    else if ("requirePreviousGone" in step) {
      if (previousPid !== null && isAlive(previousPid)) return send({ id, error: { code: -32600, message: "previous process still alive" } });
    }
  }
}

/** What gemini says when asked to enable "allow always" in a folder it does not trust. */
const UNTRUSTED_FOLDER = "Cannot enable privileged approval modes in an untrusted folder.";
const GEMINI_EDIT_OPTIONS = [
  { optionId: "proceed_always", name: "Allow All Edits", kind: "allow_always" },
  { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
  { optionId: "cancel", name: "Reject", kind: "reject_once" },
];

async function gatedWrite(write: Json): Promise<void> {
  const toolCallId = String(write.toolCallId);
  const path = join(process.cwd(), String(write.path));
  const refuse = Array.isArray(write.refuse) ? write.refuse : [];
  const toolCall = { toolCallId, title: `Writing to ${String(write.path)}`, kind: "edit", locations: [{ path }] };
  const update = (fields: Json) => send({ method: "session/update", params: { sessionId, update: { ...toolCall, ...fields } } });
  update({ sessionUpdate: "tool_call", status: "pending", rawInput: { file_path: path, content: write.content } });
  const requestId = nextRequestId++;
  const reply = new Promise<Json>((resolve) => waiting.set(requestId, resolve));
  send({ id: requestId, method: "session/request_permission", params: { sessionId, toolCall, options: GEMINI_EDIT_OPTIONS } });
  const outcome = ((await reply).result as Json | undefined)?.outcome as Json | undefined;
  const option = GEMINI_EDIT_OPTIONS.find((candidate) => candidate.optionId === outcome?.optionId);
  const fail = (text: string) => update({ sessionUpdate: "tool_call_update", status: "failed", content: [{ type: "content", content: { type: "text", text } }] });
  if (!option || option.kind === "reject_once") return fail("Tool call was cancelled by the user.");
  if (refuse.includes(option.kind)) return fail(UNTRUSTED_FOLDER);
  writeFileSync(path, String(write.content));
  update({ sessionUpdate: "tool_call_update", status: "completed", content: [{ type: "content", content: { type: "text", text: `Wrote ${String(write.path)}` } }] });
}

async function handle(frame: Json): Promise<void> {
  if (script.ledger) appendFileSync(script.ledger, `${JSON.stringify({ pid: process.pid, ...frame })}\n`);
  const { id, method } = frame;
  if (method === undefined) {
    const resolve = waiting.get(id as number);
    waiting.delete(id as number);
    resolve?.(frame);
    return;
  }
  const params = (frame.params ?? {}) as Json;
  switch (method) {
    case "initialize":
      return answer(id, script.initialize, { protocolVersion: 1, agentCapabilities: { loadSession: true }, agentInfo: { name: "fake", version: "1.0.0" } });
    case "session/new":
      return answer(id, script.sessionNew, { sessionId });
    case "session/load":
      loaded = true;
      sessionId = String(params.sessionId ?? sessionId);
      send({ method: "session/update", params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "REPLAYED HISTORY" } } } });
      return answer(id, script.sessionLoad, { sessionId });
    case "session/set_model":
      return answer(id, script.setModel, {});
    case "session/set_config_option":
      return answer(id, script.setConfigOption, {});
    case "session/set_mode":
      return answer(id, script.setMode, {});
    case "session/prompt":
      return runSteps(id, script.prompt ?? [{ result: { stopReason: "end_turn" } }]);
    case "_session/continue":
      if (!loaded) return send({ id, error: { code: -32600, message: "continue before load" } });
      return runSteps(id, script.continue ?? [{ result: { stopReason: "end_turn" } }]);
    case "session/cancel":
      cancelled = true;
      cancelWaiter?.();
      return;
    default:
      if (id !== undefined) send({ id, error: { code: -32601, message: `Method not found: ${String(method)}` } });
  }
}

function readPid(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, "utf8"));
    return Number.isFinite(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let buffered = "";
process.stdin.on("data", (chunk: Buffer) => {
  buffered += chunk.toString("utf8");
  let index = buffered.indexOf("\n");
  while (index !== -1) {
    const line = buffered.slice(0, index);
    buffered = buffered.slice(index + 1);
    if (line.trim() !== "") void handle(JSON.parse(line) as Json);
    index = buffered.indexOf("\n");
  }
});
process.stdin.on("end", () => {
  if (script.stayUpAfterEof) setInterval(() => undefined, 60_000);
  else process.exit(0);
});
