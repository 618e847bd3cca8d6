/** Runs one bounded `dsh` command and collects its output. A missing executable is reported, not thrown. */
import { spawnChild, SpawnError } from "../platform/process.ts";

export type DshCommandResult =
  | { started: true; code: number | null; stdout: string; stderr: string; timedOut: boolean }
  | { started: false; errno: string };

export async function runDsh(
  dshBin: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string | undefined>; timeoutMs: number },
): Promise<DshCommandResult> {
  let child;
  try {
    child = await spawnChild({ argv: [dshBin, ...args], cwd: options.cwd, env: options.env, stdin: "ignore", ownProcessGroup: true });
  } catch (error) {
    if (error instanceof SpawnError) return { started: false, errno: error.code };
    throw error;
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL", { group: true });
  }, options.timeoutMs);
  try {
    const [stdout, stderr, exit] = await Promise.all([collect(child.stdout), collect(child.stderr), child.exited]);
    return { started: true, code: exit.code, stdout, stderr, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let out = "";
  for await (const chunk of stream) out += decoder.decode(chunk, { stream: true });
  return out + decoder.decode();
}
