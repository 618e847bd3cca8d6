/**
 * One short script's child, wherever its shell runs (here, or at the end of an ssh or docker exec client): the
 * script framed on its stdin (then `stdin` if given), its stdout kept up to a cap (the child is killed past it), the
 * tail of its stderr, and a timeout at which the child is killed. Never throws.
 */
import type { ChildHandle } from "../platform/process.ts";
import { concatBytes } from "./bytes.ts";

export type ScriptChildOptions = {
  timeoutMs: number;
  /** At most this much stdout is kept (default 1 MiB); the child is killed past it. */
  maxBytes?: number;
  stdin?: Uint8Array | AsyncIterable<Uint8Array>;
  /** Called when the script first prints: it is running. */
  onStarted?: () => void;
};

export type ScriptChildEnd =
  | { kind: "timeout"; stderr: string }
  | { kind: "exited"; code: number | null; stdout: Uint8Array; stderr: string; printed: boolean };

const STDERR_TAIL_CHARS = 8192;

export async function collectScriptChild(child: ChildHandle, framing: string, options: ScriptChildOptions): Promise<ScriptChildEnd> {
  void feed(child, framing, options.stdin);
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const chunks: Uint8Array[] = [];
  let size = 0;
  let printed = false;
  const stdout = (async () => {
    for await (const chunk of child.stdout) {
      if (!printed) {
        printed = true;
        options.onStarted?.();
      }
      if (size < maxBytes) chunks.push(chunk.subarray(0, maxBytes - size));
      size += chunk.byteLength;
      if (size > maxBytes) child.kill("SIGKILL", { group: true });
    }
  })().catch(() => undefined);
  let stderr = "";
  const stderrDone = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) stderr = (stderr + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL_CHARS);
  })().catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), options.timeoutMs)));
  const exit = await Promise.race([child.exited, timedOut]);
  clearTimeout(timer);
  if (exit === "timeout") {
    child.kill("SIGKILL", { group: true });
    await child.exited;
    return { kind: "timeout", stderr };
  }
  await Promise.all([stdout, stderrDone]);
  return { kind: "exited", code: exit.code, stdout: concatBytes(chunks), stderr, printed };
}

/** Writes the framing, then `input` (if any), to the shell's stdin, then closes it. A script that exits without reading it all is no error. */
async function feed(child: ChildHandle, framing: string, input: Uint8Array | AsyncIterable<Uint8Array> | undefined): Promise<void> {
  const stdin = child.stdin!;
  try {
    await stdin.write(framing);
    if (input === undefined) return;
    if (input instanceof Uint8Array) await stdin.write(input);
    else for await (const chunk of input) await stdin.write(chunk);
  } catch {
    // The pipe closed under us: the script's exit says what happened.
  } finally {
    stdin.end();
  }
}
