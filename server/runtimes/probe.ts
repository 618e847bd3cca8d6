/**
 * One short-lived probe of a CLI (`--version`, `--help`, `models`, `auth status`): bounded by a timeout and an
 * output cap, run in its own process group so a hung CLI and its children are killed together. Never throws;
 * the result is tagged.
 */
import { spawnChild, SpawnError, type ChildHandle } from "../platform/process.ts";

export type ProbeOptions = {
  env?: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs: number;
  /** Bytes kept per stream; the probe is killed once either stream exceeds it. */
  maxBytes?: number;
  /** Aborting kills the probe like a timeout does (its caller no longer wants the answer). */
  signal?: AbortSignal;
  /** Written to the probe's stdin, which is then closed (default: no stdin at all). */
  stdinText?: string;
};

/** What happened to the probe. */
export type ProbeResult =
  | { kind: "exited"; code: number | null; signal: string | null; stdout: string; stderr: string; ms: number; truncated: boolean }
  | { kind: "timeout"; stdout: string; stderr: string; ms: number }
  | { kind: "spawn-error"; code: string; message: string; ms: number };

/** Signature shared by the real runner and test doubles. */
export type ProbeRunner = (argv: string[], options: ProbeOptions) => Promise<ProbeResult>;

const DEFAULT_MAX_BYTES = 1024 * 1024;
/** After a kill, how long to wait for pipes to close before giving up on them. */
const REAP_GRACE_MS = 1000;

async function collect(stream: AsyncIterable<Uint8Array>, maxBytes: number, onOverflow: () => void): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  let overflowed = false;
  try {
    for await (const chunk of stream) {
      if (overflowed) continue;
      const room = maxBytes - bytes;
      const kept = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      bytes += kept.byteLength;
      text += decoder.decode(kept, { stream: true });
      if (chunk.byteLength > room) {
        overflowed = true;
        onOverflow();
      }
    }
  } catch {
    // A pipe torn down by the kill; keep what we have.
  }
  return text + decoder.decode();
}

function delay(ms: number): Promise<"timeout"> {
  return new Promise((resolve) => setTimeout(() => resolve("timeout"), ms).unref?.());
}

/** Run `argv` to completion or until the timeout, whichever first. */
export const runProbe: ProbeRunner = async (argv, options) => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (options.signal?.aborted) return { kind: "timeout", stdout: "", stderr: "", ms: 0 };
  let child: ChildHandle;
  try {
    child = await spawnChild({ argv, env: options.env, cwd: options.cwd, stdin: options.stdinText === undefined ? "ignore" : "pipe", ownProcessGroup: true });
  } catch (error) {
    const code = error instanceof SpawnError ? error.code : "ESPAWN";
    return { kind: "spawn-error", code, message: error instanceof Error ? error.message : String(error), ms: elapsed() };
  }
  if (options.stdinText !== undefined && child.stdin) {
    void child.stdin.write(options.stdinText).catch(() => undefined);
    child.stdin.end();
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let truncated = false;
  const overflow = () => {
    truncated = true;
    child.kill("SIGKILL", { group: true });
  };
  const output = Promise.all([collect(child.stdout, maxBytes, overflow), collect(child.stderr, maxBytes, overflow)]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
    onAbort = () => resolve("timeout");
    options.signal?.addEventListener("abort", onAbort, { once: true });
  });
  const outcome = await Promise.race([child.exited, timedOut]);
  clearTimeout(timer);
  if (onAbort) options.signal?.removeEventListener("abort", onAbort);
  if (outcome === "timeout") {
    child.kill("SIGKILL", { group: true });
    const settled = await Promise.race([output, delay(REAP_GRACE_MS)]);
    const [stdout, stderr] = settled === "timeout" ? ["", ""] : settled;
    return { kind: "timeout", stdout, stderr, ms: elapsed() };
  }
  const [stdout, stderr] = await output;
  return { kind: "exited", code: outcome.code, signal: outcome.signal, stdout, stderr, ms: elapsed(), truncated };
};

/** Exit code of a finished probe, null otherwise. */
export function probeExitCode(result: ProbeResult): number | null {
  return result.kind === "exited" ? result.code : null;
}
