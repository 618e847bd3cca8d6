/**
 * The page od opens a browser on: a file in the data dir that redirects to the sign-in URL, as Jupyter's
 * `*-open.html` does. A browser's command line is visible to every local user (`/proc/<pid>/cmdline`, `ps`), so the URL
 * with its one-time code never goes there; only this file's path does, and the file is 0600 in a 0700 folder of the
 * 0700 data dir: nobody but od's own user can read it. Files older than a launch code's life are removed as new ones
 * are written (their codes are dead anyway).
 */
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { randomSecret } from "../http/credentials.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-data-dir.ts";

/** Redirect files older than this are removed (the code in one opened by `od open` lives ten minutes). */
const KEEP_MS = 15 * 60 * 1000;

export const signInPagesDir = (dataDir: string) => join(dataDir, "sign-in");

/** Writes a new redirect page to `url` and returns its path. */
export function writeSignInPage(dataDir: string, url: string, now = Date.now()): string {
  const dir = signInPagesDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  removeOldPages(dir, now);
  const path = join(dir, `open-${randomSecret()}.html`);
  // "wx": a new file, never one somebody placed there, created with its final mode.
  const fd = openSync(path, "wx", PRIVATE_FILE_MODE);
  try {
    writeSync(fd, redirectHtml(url));
  } finally {
    closeSync(fd);
  }
  return path;
}

export function redirectHtml(url: string): string {
  const attribute = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  // JSON.stringify gives a JS string literal; "<" escaped so no "</script>" can end the script early.
  const literal = JSON.stringify(url).replace(/</g, "\\u003c");
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="1;url=${attribute}">
<title>Opening od…</title>
<script>location.replace(${literal});</script>
</head><body><p>Opening od… <a href="${attribute}">continue</a></p></body></html>
`;
}

function removeOldPages(dir: string, now: number): void {
  for (const name of readdirSync(dir)) {
    if (!/^open-[\w-]+\.html$/.test(name)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
    } catch {
      // Gone meanwhile.
    }
  }
}
