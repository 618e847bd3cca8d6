/** Start an od process (binary, source or Deno) and read its first stdout line, the `od listening on …` URL. */
import { spawnChild, type ChildHandle } from "../../server/platform/process.ts";

export type RunningDaemon = {
  child: ChildHandle;
  url: string;
  origin: string;
  port: number;
  token: string;
  stderr(): string;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

const FIRST_LINE = /^od listening on (http:\/\/127\.0\.0\.1:(\d+))\/\?token=(\S+)$/;

export async function startDaemonProcess(argv: string[], options: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number } = {}): Promise<RunningDaemon> {
  const child = await spawnChild({ argv, cwd: options.cwd, env: { ...process.env, ...options.env }, ownProcessGroup: true });
  let stderr = "";
  void (async () => {
    for await (const chunk of child.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = child.stdout[Symbol.asyncIterator]();
  const deadline = setTimeout(() => child.kill("SIGKILL", { group: true }), options.timeoutMs ?? 20_000);
  try {
    while (!buffered.includes("\n")) {
      const next = await reader.next();
      if (next.done) throw new Error(`od exited before printing its URL; stderr:\n${stderr}`);
      buffered += decoder.decode(next.value, { stream: true });
    }
  } finally {
    clearTimeout(deadline);
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  void (async () => {
    for (;;) if ((await reader.next()).done) break;
  })();
  const firstLine = buffered.split("\n")[0]!;
  const match = FIRST_LINE.exec(firstLine);
  if (!match) throw new Error(`unexpected first line: ${JSON.stringify(firstLine)}`);
  const stop = async () => {
    child.kill("SIGTERM", { group: true });
    const timer = setTimeout(() => child.kill("SIGKILL", { group: true }), 5_000);
    await child.exited;
    clearTimeout(timer);
  };
  return {
    child,
    url: firstLine.slice("od listening on ".length),
    origin: match[1]!,
    port: Number(match[2]),
    token: match[3]!,
    stderr: () => stderr,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
