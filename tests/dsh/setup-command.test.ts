import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packDshRuntime } from "../../scripts/pack-dsh-runtime.ts";
import type { CommandIO } from "../../server/cli/command.ts";
import { dispatch } from "../../server/cli/dispatch.ts";
import { createSetupCommand, DSH_SETUP_EXPLAINED } from "../../server/cli/setup-command.ts";
import { folderDshRuntimeSource } from "../../server/dsh/embedded-runtime.ts";
import { tempDir } from "../support/temp.ts";

const packDir = tempDir("od-dsh-pack-");
beforeAll(() => packDshRuntime({ outDir: packDir.path }), 60_000);
afterAll(() => packDir[Symbol.dispose]());

function io(env: Record<string, string | undefined>) {
  const out = { stdout: "", stderr: "" };
  const commandIO: CommandIO = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    stdin: (async function* () {})(),
    env,
    cwd: process.cwd(),
    interrupted: new Promise(() => undefined),
  };
  return { out, commandIO };
}

const command = () => createSetupCommand({ source: () => folderDshRuntimeSource(packDir.path) });

test("--print-manifest prints the embedded manifest", async () => {
  const { out, commandIO } = io({});
  expect(await command().run({ flags: { "print-manifest": true }, positionals: ["deepseek-harness"] }, commandIO)).toBe(0);
  expect(JSON.parse(out.stdout)).toMatchObject({ packageName: "@open-design/dsh-runtime", schemaVersion: 1, file: "open-design-dsh-runtime-0.1.0.tgz" });
});

test("--json installs through $DSH_BIN into $DSH_HOME", async () => {
  using home = tempDir("od-dsh-home-");
  const { out, commandIO } = io({ ...process.env, DSH_BIN: join(import.meta.dir, "../fakes/dsh/dsh"), DSH_HOME: home.path });
  expect(await command().run({ flags: { json: true }, positionals: ["deepseek-harness"] }, commandIO)).toBe(0);
  expect(JSON.parse(out.stdout)).toEqual({ ok: true, action: "installed", agent: "deepseek-harness", packageVersion: "0.1.0" });
}, 60_000);

test("a missing dsh fails with exit 1; an unknown agent is a usage error", async () => {
  using home = tempDir("od-dsh-home-");
  const missing = io({ PATH: "", DSH_HOME: home.path, DSH_BIN: join(home.path, "nope") });
  expect(await command().run({ flags: {}, positionals: ["deepseek-harness"] }, missing.commandIO)).toBe(1);
  expect(missing.out.stderr).toContain("AGENT_NOT_INSTALLED");
  const unknown = io({});
  expect(await command().run({ flags: {}, positionals: ["claude"] }, unknown.commandIO)).toBe(2);
});

test("--help says what DeepSeek Harness is and why setup is needed, in the README's words", async () => {
  const { out, commandIO } = io({});
  const commands = [{ name: "setup", load: async () => command() }];
  expect(await dispatch(["setup", "deepseek-harness", "--help"], commands, commandIO, { version: "0", defaultCommand: "setup" })).toBe(0);
  expect(out.stdout).toContain(`\n\n${DSH_SETUP_EXPLAINED}\n`);
  const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8").replace(/\s+/g, " ");
  expect(readme).toContain(DSH_SETUP_EXPLAINED);
});
