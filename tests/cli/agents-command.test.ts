/** `od agents`: table, --json, one agent in detail, unknown id → exit 2. */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { agentsCommand, createAgentsCommand } from "../../server/cli/agents-command.ts";
import type { CommandIO } from "../../server/cli/command.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { AgentInfo } from "../../server/contracts/agents.ts";
import { tempDir } from "../support/temp.ts";
import { fakePath, testDef, writeFakeCli } from "../support/agents-fake-cli.ts";

const tmp = tempDir("od-cli-agents-");
afterAll(() => tmp[Symbol.dispose]());
const bin = join(tmp.path, "bin");
writeFakeCli(bin, "od-fake-here", "echo here 3.1.4");

function io(): CommandIO & { out: string; err: string } {
  const state = {
    out: "",
    err: "",
    stdout(text: string) { state.out += text; },
    stderr(text: string) { state.err += text; },
    stdin: (async function* () {})(),
    env: { PATH: fakePath(bin), HOME: tmp.path },
    cwd: tmp.path,
    interrupted: new Promise<string>(() => {}),
  };
  return state;
}

const command = createAgentsCommand(
  (ioArg) => new AgentCatalog({ defs: [testDef("here"), testDef("gone", { installCommand: "npm i -g gone" })], deps: () => ({ env: ioArg.env, homeDir: tmp.path }) }),
);

describe("od agents", () => {
  test("declares its flag and positional", () => {
    expect(agentsCommand.name).toBe("agents");
    expect(agentsCommand.flags.map((flag) => flag.name)).toEqual(["json"]);
  });

  test("prints a table with state, version, path, auth, models source and slowest probe", async () => {
    const out = io();
    expect(await command.run({ flags: {}, positionals: [] }, out)).toBe(0);
    const lines = out.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STATE\s+VERSION\s+PATH\s+AUTH\s+MODELS\s+SLOWEST PROBE$/);
    expect(lines[1]).toMatch(/^here\s+available\s+here 3\.1\.4\s+\S+od-fake-here\s+-\s+fallback \(1\)\s+version \d+ms$/);
    expect(lines[2]).toMatch(/^gone\s+unavailable\s+-\s+-\s+-\s+fallback \(1\)\s+-$/);
  });

  test("--json prints the AgentInfo array", async () => {
    const out = io();
    expect(await command.run({ flags: { json: true }, positionals: [] }, out)).toBe(0);
    const agents = AgentInfo.array().parse(JSON.parse(out.out));
    expect(agents.map((agent) => agent.id)).toEqual(["here", "gone"]);
  });

  test("an id shows one agent in detail, with its fix commands", async () => {
    const out = io();
    expect(await command.run({ flags: {}, positionals: ["gone"] }, out)).toBe(0);
    expect(out.out).toContain("Test gone (gone)");
    expect(out.out).toContain("[not-installed]");
    expect(out.out).toContain("run: npm i -g gone");
  });

  test("an unknown id exits 2 with a one-line error", async () => {
    const out = io();
    expect(await command.run({ flags: {}, positionals: ["nope"] }, out)).toBe(2);
    expect(out.err.trimEnd().split("\n")).toHaveLength(1);
    expect(out.err).toContain('unknown agent id "nope"');
    expect(out.out).toBe("");
  });
});
