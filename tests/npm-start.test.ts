// `npm start` from a source checkout: the README promises `od listening on …` as the first stdout line under
// `npm start --silent` (plain `npm start` prints npm's own banner first).
import { expect, test } from "bun:test";
import { join } from "node:path";
import { startDaemonProcess } from "./support/daemon-process.ts";
import { tempDir } from "./support/temp.ts";

test("npm start --silent prints the URL line first: the web build says nothing on stdout", async () => {
  using data = tempDir("od-npm-start-");
  // startDaemonProcess fails unless the first stdout line is `od listening on http://127.0.0.1:PORT/?token=CODE`.
  await using daemon = await startDaemonProcess(["npm", "start", "--silent", "--", "--port", "0", "--no-open"], {
    cwd: join(import.meta.dir, ".."),
    env: { OD_DATA_DIR: data.path },
    timeoutMs: 90_000,
  });
  expect(daemon.port).toBeGreaterThan(0);
  const health = await fetch(`${daemon.origin}/api/health`);
  expect(((await health.json()) as { ok: boolean }).ok).toBe(true);
}, 120_000);
