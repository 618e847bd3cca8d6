/**
 * A scriptable fake `codex app-server` (JSON-RPC frames without the "jsonrpc" field) for transport and run-service
 * tests. Usage: `bun tests/fakes/codex-app-server.ts <script.json>` or the script JSON in `FAKE_CODEX_SCRIPT`.
 * Every received frame is appended to `script.ledger` (JSONL) when set.
 *
 * Script: `{ userAgent?, threadStart?, threadResume?: Entry[] (one per call), turn: Step[] }`; Entry = {result}|{error};
 * Step: {notify: {method, params}} ("$CWD" in it becomes the fake's cwd) | {request: {method, params}} (waits for the answer) | {raw} |
 *       {waitForInterrupt: true} (then turn/completed interrupted) | {exit: code} | {complete: status, error?}
 */
import { appendFileSync, readFileSync } from "node:fs";

type Json = Record<string, unknown>;
const script: Json = JSON.parse(process.argv[2]?.endsWith(".json") ? readFileSync(process.argv[2], "utf8") : (process.env.FAKE_CODEX_SCRIPT ?? "{}"));
const threadId = "thread-fake-1";
const turnId = "turn-fake-1";
let resumeCalls = 0;
let nextId = 100;
const waiting = new Map<unknown, () => void>();
let interruptWaiter: (() => void) | null = null;
let interrupted = false;

const send = (frame: Json): void => void process.stdout.write(`${JSON.stringify(frame)}\n`);
const reply = (id: unknown, entry: Json | undefined, fallback: unknown) =>
  entry && "error" in entry ? send({ id, error: entry.error }) : send({ id, result: entry && "result" in entry ? entry.result : fallback });

async function runTurn(steps: Json[]): Promise<void> {
  send({ method: "turn/started", params: { threadId, turn: { id: turnId, status: "inProgress" } } });
  for (const step of steps) {
    if ("notify" in step) send(JSON.parse(JSON.stringify(step.notify).replaceAll("$CWD", process.cwd())) as Json);
    else if ("raw" in step) process.stdout.write(String(step.raw));
    else if ("request" in step) {
      const id = nextId++;
      const answered = new Promise<void>((resolve) => waiting.set(id, resolve));
      send({ id, ...(step.request as Json) });
      await answered;
    } else if ("waitForInterrupt" in step) {
      if (!interrupted) await new Promise<void>((resolve) => (interruptWaiter = resolve));
      return send({ method: "turn/completed", params: { threadId, turn: { id: turnId, status: "interrupted", error: null, items: [] } } });
    } else if ("exit" in step) process.exit(Number(step.exit));
    else if ("complete" in step) {
      return send({ method: "turn/completed", params: { threadId, turn: { id: turnId, status: step.complete, error: step.error ?? null, items: [] } } });
    }
  }
  send({ method: "turn/completed", params: { threadId, turn: { id: turnId, status: "completed", error: null, items: [] } } });
}

function handle(frame: Json): void {
  if (typeof script.ledger === "string") appendFileSync(script.ledger, `${JSON.stringify({ pid: process.pid, ...frame })}\n`);
  const { id, method } = frame;
  if (method === undefined) {
    waiting.get(id)?.();
    return;
  }
  switch (method) {
    case "initialize":
      return send({ id, result: { userAgent: script.userAgent ?? "open-design/0.171.0 (Fake; x86_64) fake", codexHome: "/nowhere", platformFamily: "unix", platformOs: "linux" } });
    case "initialized":
      return;
    case "thread/start":
      send({ method: "thread/started", params: { thread: { id: threadId } } });
      return reply(id, script.threadStart as Json | undefined, { thread: { id: threadId, turns: [] } });
    case "thread/resume": {
      const entries = (script.threadResume as Json[] | undefined) ?? [];
      return reply(id, entries[resumeCalls++], { thread: { id: (frame.params as Json).threadId, turns: [] } });
    }
    case "thread/unarchive":
      return send({ id, result: {} });
    case "turn/start":
      send({ id, result: { turn: { id: turnId, status: "inProgress", items: [] } } });
      void runTurn((script.turn as Json[]) ?? []);
      return;
    case "turn/interrupt":
      interrupted = true;
      send({ id, result: {} });
      if (interruptWaiter) interruptWaiter();
      return;
    default:
      if (id !== undefined) send({ id, error: { code: -32601, message: `unknown method ${String(method)}` } });
  }
}

let buffered = "";
process.stdin.on("data", (chunk: Buffer) => {
  buffered += chunk.toString("utf8");
  let index = buffered.indexOf("\n");
  while (index !== -1) {
    const line = buffered.slice(0, index);
    buffered = buffered.slice(index + 1);
    if (line.trim() !== "") handle(JSON.parse(line) as Json);
    index = buffered.indexOf("\n");
  }
});
process.stdin.on("end", () => process.exit(0));
