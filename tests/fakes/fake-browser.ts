/**
 * A stand-in for a browser, for `$BROWSER`: `bun fake-browser.ts RESULT_FILE TARGET`. Like a real browser it takes
 * a moment to start (50 ms), then loads TARGET: a URL as given, or a file whose redirect (`location.replace(…)`) it
 * follows. It trades the URL's `?token=` launch code for a session as the page would, and writes what happened to
 * RESULT_FILE as JSON.
 */
import { renameSync, statSync, readFileSync, writeFileSync } from "node:fs";

const [resultFile, target] = process.argv.slice(2);
if (!resultFile || !target) throw new Error("usage: fake-browser.ts RESULT_FILE TARGET");
await Bun.sleep(50);
let url = target;
let file: { path: string; mode: number; uid: number } | undefined;
if (!/^https?:\/\//.test(target)) {
  const stat = statSync(target);
  file = { path: target, mode: stat.mode & 0o777, uid: stat.uid };
  const redirect = /location\.replace\(("[^"]*")\)/.exec(readFileSync(target, "utf8"));
  if (!redirect) throw new Error(`${target} redirects nowhere`);
  url = JSON.parse(redirect[1]!) as string;
}
const parsed = new URL(url);
const res = await fetch(`${parsed.origin}/api/session`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ code: parsed.searchParams.get("token") }),
});
const body = (await res.json()) as { secret?: string; error?: { code: string } };
// Whole or not at all: the tests poll for this file and parse it as soon as it exists.
writeFileSync(`${resultFile}.partial`, JSON.stringify({ target, url, file, status: res.status, secret: body.secret, error: body.error?.code }));
renameSync(`${resultFile}.partial`, resultFile);
