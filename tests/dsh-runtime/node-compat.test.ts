/** The packed profile must run on plain Node ≥ 20 without a build step (dsh runs it on Node, not Bun). */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const nodeFound = spawnSync("node", ["--version"]).status === 0;

test.skipIf(!nodeFound)("node imports ./startup and answers --probe", () => {
  const startupUrl = pathToFileURL(join(import.meta.dir, "../../server/dsh-runtime/src/startup.mjs")).href;
  const program = `
    const { startup } = await import(${JSON.stringify(startupUrl)});
    const code = await startup({ argv: ["--probe"], harness: {}, stdin: [], stdout: process.stdout, stderr: process.stderr });
    process.exit(code);`;
  const result = spawnSync("node", ["--input-type=module", "-e", program], { encoding: "utf8" });
  expect(result.status).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ type: "probe", protocol_version: 1, runtime: "open-design" });
});
