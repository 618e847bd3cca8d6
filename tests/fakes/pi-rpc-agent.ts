/**
 * A scriptable fake `pi --mode rpc` for transport and run-service tests.
 * Usage: `bun tests/fakes/pi-rpc-agent.ts <script.json>` or the script JSON in `FAKE_PI_SCRIPT`.
 * Every received command is appended to `script.ledger` (JSONL) when set.
 *
 * Script: `{ newSession?: {success, error?}, promptResponse?: {success, error?}, prompt: Step[], sessionDir? }`; Step:
 *   {event}                 one record on stdout
 *   {raw}                   raw text on stdout
 *   {stderr}                raw text on stderr
 *   {uiRequest}             an extension_ui_request; waits for its extension_ui_response when it has an id
 *   {waitForAbort: true}    block until {"type":"abort"}, then emit agent_end
 *   {writeSessionFile}      create/append that file under sessionDir (default <cwd>/.pi/sessions)
 *   {exit: code} | {sleep: ms}
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

type Json = Record<string, unknown>;
const script: Json = JSON.parse(process.argv[2]?.endsWith(".json") ? readFileSync(process.argv[2], "utf8") : (process.env.FAKE_PI_SCRIPT ?? "{}"));
const sessionDir = typeof script.sessionDir === "string" ? script.sessionDir : join(process.cwd(), ".pi", "sessions");
const waiting = new Map<string, () => void>();
let abortWaiter: (() => void) | null = null;
let aborted = false;

const out = (record: Json): void => void process.stdout.write(`${JSON.stringify(record)}\n`);

async function runSteps(steps: Json[]): Promise<void> {
  for (const step of steps) {
    if ("event" in step) out(step.event as Json);
    else if ("raw" in step) process.stdout.write(String(step.raw));
    else if ("stderr" in step) process.stderr.write(String(step.stderr));
    else if ("uiRequest" in step) {
      const request = step.uiRequest as Json;
      const answered = typeof request.id === "string" ? new Promise<void>((resolve) => waiting.set(request.id as string, resolve)) : null;
      out({ type: "extension_ui_request", ...request });
      if (answered) await answered;
    } else if ("waitForAbort" in step) {
      if (!aborted) await new Promise<void>((resolve) => (abortWaiter = resolve));
      out({ type: "agent_end", messages: [] });
    } else if ("writeSessionFile" in step) {
      mkdirSync(sessionDir, { recursive: true });
      appendFileSync(join(sessionDir, String(step.writeSessionFile)), `${JSON.stringify({ type: "session" })}\n`);
    } else if ("exit" in step) process.exit(Number(step.exit));
    else if ("sleep" in step) await new Promise((resolve) => setTimeout(resolve, Number(step.sleep)));
  }
}

async function handle(command: Json): Promise<void> {
  if (typeof script.ledger === "string") appendFileSync(script.ledger, `${JSON.stringify({ pid: process.pid, ...command })}\n`);
  switch (command.type) {
    case "new_session":
    case "switch_session":
      out({ type: "response", id: command.id, command: command.type, ...((script.newSession as Json) ?? { success: true }) });
      return;
    case "prompt":
      out({ type: "response", id: command.id, command: "prompt", ...((script.promptResponse as Json) ?? { success: true }) });
      if ((script.promptResponse as Json | undefined)?.success === false) return;
      return runSteps((script.prompt as Json[]) ?? [{ event: { type: "agent_start" } }, { event: { type: "agent_end", messages: [] } }]);
    case "abort":
      aborted = true;
      if (abortWaiter) abortWaiter();
      return;
    case "extension_ui_response":
      waiting.get(String(command.id))?.();
      return;
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
process.stdin.on("end", () => process.exit(0));
