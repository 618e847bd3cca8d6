/** Best-effort: open a URL in the user's browser. Never fails the caller. */

export async function openBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  const argv =
    platform === "darwin" ? ["open", url] : platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  try {
    // Imported here: node:child_process is not part of the daemon's start-up path.
    const { spawnChild } = await import("../platform/process.ts");
    const child = await spawnChild({ argv, ownProcessGroup: true });
    void child.exited;
  } catch {
    // No opener on this machine (headless server): the URL is printed anyway.
  }
}
