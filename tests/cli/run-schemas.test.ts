// `od run` builds only the schemas it parses with: the run and event unions (contracts/runs.ts, events.ts, projects.ts)
// are the daemon's API, and building them cost every `od run` ~8 ms before the agent could start.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { childOutput } from "../support/child-output.ts";
import { writeShim } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const textFixture = join(root, "tests", "fixtures", "copilot", "text.jsonl");

test("od run loads neither the run, the event nor the conversation schemas", async () => {
  using dir = tempDir("od-run-schemas-");
  const bin = join(dir.path, "bin");
  mkdirSync(bin);
  mkdirSync(join(dir.path, "project"));
  writeShim(bin, "copilot");
  writeFileSync(join(dir.path, "script.json"), JSON.stringify([{ readAll: true }, { outFile: textFixture }]));
  const loaded = join(dir.path, "loaded.txt");
  const child = await spawnChild({
    argv: [process.execPath, "--preload", join(root, "tests", "support", "loaded-modules-preload.ts"), join(root, "server", "main.ts"), "run", "--agent", "copilot", "--json", "--project", join(dir.path, "project"), "--data-dir", join(dir.path, "data"), "hello"],
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir.path, FAKE_CLI_SCRIPT: `@${join(dir.path, "script.json")}`, OD_TEST_LOADED_MODULES: loaded },
    stdin: "ignore",
  });
  const { stdout, code } = await childOutput(child);
  expect(code).toBe(0);
  expect(stdout).toContain('"status":"succeeded"');
  const contracts = readFileSync(loaded, "utf8").split("\n").filter((path) => path.includes(join("server", "contracts")));
  expect(contracts.some((path) => path.endsWith(join("contracts", "prompt.ts")))).toBe(true); // the walk sees contracts
  for (const schemas of ["runs.ts", "events.ts", "projects.ts"]) expect(contracts.filter((path) => path.endsWith(join("contracts", schemas)))).toEqual([]);
}, 30_000);
