// `od run` builds only the schemas it parses with. The run and event unions (contracts/runs.ts, events.ts,
// projects.ts) are the daemon's API, and building them cost every `od run` ~8 ms before the agent could start; zod
// itself and the schemas of what a person may have saved (app config, MCP servers, skills, local profiles) cost
// ~15 ms more, so those load on first use (server/platform/load-on-first-use.ts), when there is something to check.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { writeMcpFile } from "../../server/mcp/config-files.ts";
import { Store } from "../../server/store/store.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { childOutput } from "../support/child-output.ts";
import { writeShim } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const textFixture = join(root, "tests", "fixtures", "copilot", "text.jsonl");

type OdRun = { stdout: string; loaded: string[] };

/** One source run of `od run --json` in a fresh folder; its stdout and the paths of every module it loaded. */
async function odRun(setUp: (project: string) => void = () => {}): Promise<OdRun> {
  return (await odRuns(["hello"], setUp))[0]!;
}

/** Source runs of `od run --json`, one per prompt, one after another in one fresh folder and data dir. */
async function odRuns(prompts: string[], setUp: (project: string) => void = () => {}): Promise<OdRun[]> {
  using dir = tempDir("od-run-schemas-");
  const bin = join(dir.path, "bin");
  const project = join(dir.path, "project");
  mkdirSync(bin);
  mkdirSync(project);
  setUp(project);
  writeShim(bin, "copilot");
  writeFileSync(join(dir.path, "script.json"), JSON.stringify([{ readAll: true }, { outFile: textFixture }]));
  const runs: OdRun[] = [];
  for (const [index, prompt] of prompts.entries()) {
    const loaded = join(dir.path, `loaded-${index}.txt`);
    const child = await spawnChild({
      argv: [process.execPath, "--preload", join(root, "tests", "support", "loaded-modules-preload.ts"), join(root, "server", "main.ts"), "run", "--agent", "copilot", "--json", "--project", project, "--data-dir", join(dir.path, "data"), prompt],
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir.path, FAKE_CLI_SCRIPT: `@${join(dir.path, "script.json")}`, OD_TEST_LOADED_MODULES: loaded },
      stdin: "ignore",
    });
    const { stdout, code } = await childOutput(child);
    expect(code).toBe(0);
    expect(stdout).toContain('"status":"succeeded"');
    runs.push({ stdout, loaded: readFileSync(loaded, "utf8").split("\n") });
  }
  return runs;
}

const contractsOf = (loaded: string[]) => loaded.filter((path) => path.includes(join("server", "contracts")));
const packageOf = (loaded: string[], name: string) => loaded.filter((path) => path.includes(join("node_modules", name, "")));
const zodOf = (loaded: string[]) => [...packageOf(loaded, "zod"), ...loaded.filter((path) => path.endsWith(join("contracts", "zod.ts")))];

test("od run with nothing saved loads no schema, and not zod", async () => {
  const { loaded } = await odRun();
  const contracts = contractsOf(loaded);
  expect(contracts.some((path) => path.endsWith(join("contracts", "prompt-text.ts")))).toBe(true); // the walk sees contracts
  for (const schemas of ["runs.ts", "events.ts", "projects.ts", "prompt.ts", "app-config.ts", "mcp.ts", "skills.ts", "probe-timeouts.ts"]) {
    expect(contracts.filter((path) => path.endsWith(join("contracts", schemas)))).toEqual([]);
  }
  expect(zodOf(loaded)).toEqual([]);
  // Nor jsdiff when the run changed no file, nor the yaml package when it selected no skill.
  expect(packageOf(loaded, "diff")).toEqual([]);
  expect(packageOf(loaded, "yaml")).toEqual([]);
}, 30_000);

test("a config this od saved (a theme) is read without its schema, and without zod", async () => {
  const { loaded } = await odRun((project) => {
    const store = Store.open(join(project, "..", "data", "od.db"), openBunSqlite);
    store.appConfig.update({ theme: "dark" });
    store.close();
  });
  expect(contractsOf(loaded).filter((path) => path.endsWith(join("contracts", "app-config.ts")))).toEqual([]);
  expect(zodOf(loaded)).toEqual([]);
}, 30_000);

test("the user's MCP list as the page saved it is read without its schema, and without zod", async () => {
  const { stdout, loaded } = await odRun((project) => {
    mkdirSync(join(project, "..", "data"), { recursive: true, mode: 0o700 });
    writeMcpFile(join(project, "..", "data", "mcp.json"), { servers: [{ name: "fs", type: "stdio", command: "mcp-fs" }] });
  });
  expect(stdout).not.toContain("mcp_config_invalid");
  expect(contractsOf(loaded).filter((path) => path.endsWith(join("contracts", "mcp.ts")))).toEqual([]);
  expect(zodOf(loaded)).toEqual([]);
}, 30_000);

test("a run that uses a skill parses its frontmatter once: the next one loads neither the yaml package nor zod", async () => {
  const [first, second] = await odRuns(["use @html-slides", "use @html-slides again"]);
  for (const run of [first!, second!]) expect(run.stdout).toContain("html-slides");
  expect(packageOf(first!.loaded, "yaml").length).toBeGreaterThan(0);
  expect(packageOf(second!.loaded, "yaml")).toEqual([]);
  expect(zodOf(second!.loaded)).toEqual([]);
}, 30_000);

test("a saved MCP list is checked with its schema, loaded on first use", async () => {
  const { stdout, loaded } = await odRun((project) => {
    mkdirSync(join(project, ".od"));
    writeFileSync(join(project, ".od", "mcp-config.json"), JSON.stringify({ servers: [{ name: "broken" }] }));
  });
  expect(stdout).toContain("mcp_config_invalid");
  expect(stdout).toContain("server 'broken' left out");
  expect(contractsOf(loaded).some((path) => path.endsWith(join("contracts", "mcp.ts")))).toBe(true);
  expect(zodOf(loaded).length).toBeGreaterThan(0);
}, 30_000);
