/** Scripted pipes for the DSH profile transport: a pushable stdout and a stdin that records commands. */
import type { AgentEvent } from "../../../server/contracts/events.ts";
import type { ChildStdin } from "../../../server/platform/process.ts";

export function scriptedPipes() {
  const written: Record<string, unknown>[] = [];
  const chunks: Uint8Array[] = [];
  let wake: () => void = () => undefined;
  let ended = false;
  let stdinEnded = false;
  const encoder = new TextEncoder();
  const stdout: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      while (true) {
        if (chunks.length > 0) yield chunks.shift() as Uint8Array;
        else if (ended) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  const stdin: ChildStdin = {
    get closed() {
      return stdinEnded;
    },
    async write(chunk) {
      const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      for (const line of text.split("\n").filter(Boolean)) written.push(JSON.parse(line) as Record<string, unknown>);
    },
    end() {
      stdinEnded = true;
    },
  };
  return {
    io: { stdin, stdout },
    written,
    stdinEnded: () => stdinEnded,
    /** Raw bytes (or text) exactly as given. */
    raw(data: string | Uint8Array) {
      chunks.push(typeof data === "string" ? encoder.encode(data) : data);
      wake();
    },
    /** One frame per line; `v: 1` and the request id added unless given. */
    frame(frame: Record<string, unknown>) {
      this.raw(`${JSON.stringify({ v: 1, ...frame })}\n`);
    },
    end() {
      ended = true;
      wake();
    },
  };
}

export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

export const READY = {
  type: "ready",
  runtime: "open-design",
  protocol_version: 1,
  plugin_version: "0.1.0",
  capabilities: { session_resume: true, session_cancel: true, structured_events: true },
};

/** Polls until `check` holds (bounded). */
export async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
