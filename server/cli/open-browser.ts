/** Best-effort: open a URL in the user's browser. Never fails the caller. */
import { spawnChild } from "../platform/process.ts";

export async function openBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  const argv =
    platform === "darwin" ? ["open", url] : platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  try {
    const child = await spawnChild({ argv, ownProcessGroup: true });
    void child.exited;
  } catch {
    // No opener on this machine (headless server): the URL is printed anyway.
  }
}
