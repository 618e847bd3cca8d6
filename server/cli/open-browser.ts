/**
 * Open a file or URL in the user's browser: `$BROWSER` when set (as xdg-open, Python's webbrowser and Jupyter read
 * it: a command, `%s` standing for the target or the target appended), else the platform's opener. Whatever it is
 * given lands on a command line every local user can read, so od only ever gives it the path of a private redirect
 * page (sign-in-page.ts), never a URL with a code in it. Never throws: the caller says what to do instead.
 */

export type OpenOutcome = { opened: true } | { opened: false; reason: string };

/** An opener still running after this long is taken to have handed the page to a browser (some wait for it). */
const OPENER_GRACE_MS = 3000;

export function openerArgv(target: string, env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string[] {
  // $BROWSER may list several commands separated by ":"; the first is used.
  const chosen = env.BROWSER?.split(":")[0]?.trim();
  if (chosen) {
    const words = chosen.split(/\s+/);
    return words.includes("%s") ? words.map((word) => (word === "%s" ? target : word)) : [...words, target];
  }
  return platform === "darwin" ? ["open", target] : platform === "win32" ? ["cmd", "/c", "start", "", target] : ["xdg-open", target];
}

export async function openBrowser(
  target: string,
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<OpenOutcome> {
  const argv = openerArgv(target, env, platform);
  try {
    // Imported here: node:child_process is not part of the daemon's start-up path.
    const { spawnChild } = await import("../platform/process.ts");
    // A browser outlives od: its own process group, so a Ctrl-C of od does not close it.
    const child = await spawnChild({ argv, env, stdin: "ignore", ownProcessGroup: true });
    void drain(child.stdout);
    void drain(child.stderr);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), OPENER_GRACE_MS);
    });
    const exit = await Promise.race([child.exited, grace]);
    clearTimeout(timer);
    if (exit && (exit.code !== 0 || exit.signal)) {
      return { opened: false, reason: `${argv[0]} ${exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.code}`}` };
    }
    return { opened: true };
  } catch (error) {
    return { opened: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** A browser that writes to its stdout or stderr must never block on a pipe nobody reads. */
async function drain(stream: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    for await (const _ of stream);
  } catch {
    // Closed: nothing more to read.
  }
}
