/**
 * The catalog's deadline: a CLI still probing after it is reported as such, from its last-good result when an
 * earlier pass (in any od process: the result is kept in a file) found one; its real result still follows.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentCatalog, DEFAULT_PASS_DEADLINE_MS, passDeadlineFromEnv } from "../../server/runtimes/catalog.ts";
import { FileDetectionCache } from "../../server/runtimes/detection-cache.ts";
import { fakePath, testDef, writeFakeCli } from "../support/agents-fake-cli.ts";
import { tempDir } from "../support/temp.ts";

const tmp = tempDir("od-catalog-deadline-");
afterAll(() => tmp[Symbol.dispose]());
const bin = join(tmp.path, "bin");
const slowFlag = join(tmp.path, "be-slow");
// Answers at once, unless the flag file says to take 3 s (a loaded machine).
writeFakeCli(
  bin,
  "od-fake-moody",
  `case "$1" in
  --version) [ -e "${slowFlag}" ] && sleep 3; echo "moody 1.2";;
  --help) echo "  --trust";;
esac`,
);
const moody = testDef("moody", { helpArgs: ["--help"], capabilityFlags: { "--trust": "trust" } });
const cacheFile = join(tmp.path, "data", "agents-cache.json");
const catalog = () =>
  new AgentCatalog({
    defs: [moody],
    deadlineMs: 1000,
    cache: new FileDetectionCache(cacheFile),
    deps: () => ({ env: { PATH: fakePath(bin), HOME: tmp.path }, homeDir: tmp.path }),
  });

test("a CLI slower than the deadline shows its last-good result (kept by another catalog) until its real one arrives", async () => {
  rmSync(slowFlag, { force: true });
  const first = await catalog().list();
  expect(first[0]).toMatchObject({ id: "moody", state: "available", version: "moody 1.2" });
  expect(existsSync(cacheFile)).toBe(true);

  writeFileSync(slowFlag, "");
  const later = catalog();
  const [shown] = await later.list();
  expect(shown).toMatchObject({ id: "moody", state: "available", version: "moody 1.2", capabilities: { trust: true } });
  expect(shown?.diagnostics[0]).toMatchObject({ reason: "probe-timeout", severity: "info" });
  expect(shown?.diagnostics[0]?.message).toContain("last complete result");
  // Runs started meanwhile get the last-good flags.
  expect(later.capabilities.get("moody")).toEqual({ trust: true });

  // The pass goes on in the background: the stream shows the stand-in, then the real result.
  const streamed = [];
  for await (const agent of later.stream()) streamed.push(agent.diagnostics.map((d) => d.severity).join(","));
  expect(streamed).toEqual(["info", ""]);
  expect(later.peek("moody")?.diagnostics).toEqual([]);
}, 30_000);

test("without a last-good result the stand-in is state probing, not unavailable", async () => {
  rmSync(cacheFile, { force: true });
  writeFileSync(slowFlag, "");
  const probing = catalog();
  const [shown] = await probing.list();
  probing.close();
  expect(shown).toMatchObject({ id: "moody", state: "probing", available: false, version: null });
}, 30_000);

test("the deadline is about 10 s unless OD_DETECTION_DEADLINE_MS says otherwise (≤ 0: wait for every CLI)", () => {
  expect(DEFAULT_PASS_DEADLINE_MS).toBeLessThanOrEqual(10_000);
  expect(passDeadlineFromEnv({})).toBe(DEFAULT_PASS_DEADLINE_MS);
  expect(passDeadlineFromEnv({ OD_DETECTION_DEADLINE_MS: "2500" })).toBe(2500);
  expect(passDeadlineFromEnv({ OD_DETECTION_DEADLINE_MS: "0" })).toBe(Infinity);
  expect(passDeadlineFromEnv({ OD_DETECTION_DEADLINE_MS: "soon" })).toBe(DEFAULT_PASS_DEADLINE_MS);
});
