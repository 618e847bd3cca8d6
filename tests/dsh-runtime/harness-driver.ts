/** Drives the profile's `startup` in-process: a pushable stdin, collected stdout frames, the fake harness. */
import { startup, type Harness } from "../../server/dsh-runtime/src/index.mjs";
import { createFakeHarness } from "../fakes/dsh/harness.ts";
import type { FakeDshScript } from "../fakes/dsh/script.ts";

export type Frame = Record<string, unknown> & { type: string };

export function driveStartup(argv: string[], options: { script?: FakeDshScript; harness?: Harness } = {}) {
  const frames: Frame[] = [];
  let stderr = "";
  const pending: string[] = [];
  let wake: () => void = () => undefined;
  let closed = false;
  const stdin: AsyncIterable<string> = {
    async *[Symbol.asyncIterator]() {
      while (true) {
        if (pending.length > 0) yield pending.shift() as string;
        else if (closed) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  let partial = "";
  const harness = options.harness ?? createFakeHarness(options.script ?? {});
  const exit = startup({
    argv,
    harness,
    stdin,
    stdout: {
      write(chunk: string) {
        partial += chunk;
        const lines = partial.split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) frames.push(JSON.parse(line) as Frame);
      },
    },
    stderr: { write: (chunk: string) => void (stderr += chunk) },
  });
  return {
    frames,
    harness,
    exit,
    stderr: () => stderr,
    send(value: unknown) {
      pending.push(`${typeof value === "string" ? value : JSON.stringify(value)}\n`);
      wake();
    },
    close() {
      closed = true;
      wake();
    },
    /** Polls until a frame matching `predicate` arrives (bounded). */
    async waitFor(predicate: (frame: Frame) => boolean, timeoutMs = 3000): Promise<Frame> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = frames.find(predicate);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`no matching frame; got ${JSON.stringify(frames)}`);
    },
  };
}

export const execute = (fields: Record<string, unknown> = {}) => ({
  v: 1,
  type: "execute",
  request_id: "run-1",
  cwd: "/project",
  prompt: "hello",
  mcp_servers: [],
  ...fields,
});
