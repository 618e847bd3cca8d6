/** Run the `od` command line from source as a child process and collect what it printed. */
import { join } from "node:path";

export const OD_MAIN = join(import.meta.dir, "..", "..", "server", "main.ts");
export const FAKE_BROWSER = join(import.meta.dir, "..", "fakes", "fake-browser.ts");

/** `$BROWSER` for the fake browser (tests/fakes/fake-browser.ts), writing what it did to `resultFile`. */
export function fakeBrowserCommand(resultFile: string): string {
  return `${process.execPath} ${FAKE_BROWSER} ${resultFile}`;
}

export async function runOd(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn([process.execPath, OD_MAIN, ...args], { env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}
