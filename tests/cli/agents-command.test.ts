/** `od agents`: table, --json, one agent in detail, unknown id → exit 2. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";
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

// Registry order puts the missing ones first, as the real registry does for agents few people have.
const mixedCommand = createAgentsCommand(
  (ioArg) =>
    new AgentCatalog({
      defs: [
        testDef("gone", { installCommand: "npm i -g gone" }),
        testDef("nolink"),
        testDef("docs", { docsUrl: "https://example.com/docs" }),
        testDef("here"),
      ],
      deps: () => ({ env: ioArg.env, homeDir: tmp.path }),
    }),
);

describe("od agents", () => {
  test("declares its flags and positional (--on: detection on another machine, issue #21; --data-dir: whose settings, #36)", () => {
    const real = agentsCommand({ openSqlite: () => { throw new Error("not opened"); } });
    expect(real.name).toBe("agents");
    expect(real.flags.map((flag) => flag.name)).toEqual(["json", "on", "data-dir"]);
  });

  test("--data-dir names the data dir whose settings detection reads", async () => {
    let asked: string | undefined;
    const withDataDir = createAgentsCommand((ioArg, dataDir) => {
      asked = dataDir;
      return new AgentCatalog({ defs: [testDef("here")], deps: () => ({ env: ioArg.env, homeDir: tmp.path }) });
    });
    await withDataDir.run({ flags: { "data-dir": "/somewhere/od-data", json: true }, positionals: [] }, io());
    expect(asked).toBe("/somewhere/od-data");
  });

  test("prints a table with state, version, path, auth, models source and slowest probe", async () => {
    const out = io();
    expect(await command.run({ flags: {}, positionals: [] }, out)).toBe(0);
    const lines = out.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STATE\s+VERSION\s+PATH\s+AUTH\s+MODELS\s+SLOWEST PROBE\s+WHY NOT AVAILABLE$/);
    expect(lines[1]).toMatch(/^here\s+available\s+here 3\.1\.4\s+\S+od-fake-here\s+-\s+fallback \(1\)\s+version \d+ms\s+-$/);
    expect(lines[2]).toMatch(/^gone\s+unavailable\s+-\s+-\s+-\s+fallback \(1\)\s+-\s+not-installed; run: npm i -g gone$/);
  });

  test("lists installed agents first and says in its last column why each other one is not available", async () => {
    const out = io();
    expect(await mixedCommand.run({ flags: {}, positionals: [] }, out)).toBe(0);
    const rows = out.out.trimEnd().split("\n").slice(1);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(["here", "gone", "nolink", "docs"]);
    expect(rows[0]).toMatch(/\s-$/);
    expect(rows[1]).toMatch(/\snot-installed; run: npm i -g gone$/);
    expect(rows[2]).toMatch(/\snot-installed$/);
    expect(rows[3]).toMatch(/\snot-installed; https:\/\/example\.com\/docs$/);
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

describe("od agents with a hung CLI", () => {
  // Like pi hung at start-up: a 15 s version budget and a 60 s models budget that used to run one after the other.
  const pidFile = join(tmp.path, "hung.pid");
  writeFakeCli(bin, "od-fake-hung", `echo $$ >> "${pidFile}"; exec sleep 30`);
  const hung = testDef("hung", { versionProbeTimeoutMs: 15_000, listModels: { args: ["--list-models"], timeoutMs: 60_000, parse: () => null } });
  const gone = (pid: number) => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };

  test("returns at the deadline with the hung CLI reported as still probing, and stops its probes", async () => {
    const hungCommand = createAgentsCommand(
      (ioArg) => new AgentCatalog({ defs: [testDef("here"), hung], deadlineMs: 1500, deps: () => ({ env: ioArg.env, homeDir: tmp.path }) }),
    );
    const out = io();
    const started = performance.now();
    expect(await hungCommand.run({ flags: { json: true }, positionals: [] }, out)).toBe(0);
    // Well below the 30 s the CLI sleeps (and the 15 s version budget alone).
    expect(performance.now() - started).toBeLessThan(10_000);
    const agents = AgentInfo.array().parse(JSON.parse(out.out));
    expect(agents.map((agent) => [agent.id, agent.state])).toEqual([["here", "available"], ["hung", "probing"]]);
    expect(agents[1]?.diagnostics[0]).toMatchObject({ reason: "probe-timeout", severity: "info" });
    expect(agents[1]?.diagnostics[0]?.message).toContain("still being probed");
    // The command owned the probe: it is killed rather than left behind.
    const pids = (await Bun.file(pidFile).text()).trim().split("\n").map(Number);
    for (let waited = 0; !pids.every(gone) && waited < 5000; waited += 50) await Bun.sleep(50);
    expect(pids.every(gone)).toBe(true);
  }, 30_000);
});

describe("od agents over the data dir", () => {
  test("probes see the agentCliEnv stored in the data dir, and the result is kept there for later runs", async () => {
    const dataDir = join(tmp.path, "data");
    const store = Store.open(join(dataDir, "od.db"), openBunSqlite);
    store.appConfig.update({ agentCliEnv: { pi: { OD_FAKE_PROVIDER: "configured" } } });
    store.close();
    const fakePi = writeFakeCli(
      bin,
      "od-fake-pi",
      `case "$1" in --version) echo 0.73.1;; --list-models) printf 'provider model\\n%s fake-model\\n' "\${OD_FAKE_PROVIDER:-base}";; esac`,
    );
    const out = io();
    out.env = { ...out.env, OD_DATA_DIR: dataDir, PI_BIN: fakePi };
    const command = agentsCommand({ openSqlite: openBunSqlite });
    expect(await command.run({ flags: { json: true }, positionals: ["pi"] }, out)).toBe(0);
    const pi = AgentInfo.parse(JSON.parse(out.out));
    expect(pi.models.map((model) => model.id)).toContain("configured/fake-model");
    expect(pi.models.map((model) => model.id)).not.toContain("base/fake-model");
    const cached = JSON.parse(readFileSync(join(dataDir, "agents-cache.json"), "utf8")) as { agents: Record<string, { entry: string }> };
    expect(JSON.parse(cached.agents.pi!.entry).info.version).toBe("0.73.1");
  }, 30_000);
});

describe("od agents, local profiles", () => {
  test("lists the local profiles of the data dir it is given, not those of the environment's", async () => {
    const dataDir = join(tmp.path, "data-with-profiles");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, "agents.local.json"), JSON.stringify([{ id: "my-claude", baseAgent: "claude" }]));
    const out = io();
    out.env = { ...out.env, OD_DATA_DIR: join(tmp.path, "data-without-profiles") };
    const command = agentsCommand({ openSqlite: openBunSqlite });
    expect(await command.run({ flags: { json: true, "data-dir": dataDir }, positionals: [] }, out)).toBe(0);
    const ids = (JSON.parse(out.out) as { id: string }[]).map((agent) => agent.id);
    expect(ids).toContain("my-claude");
    expect(ids).toContain("claude");
  }, 30_000);
});

describe("od agents --on a machine", () => {
  test("a host that cannot be reached is one line saying so and why, exit 1 — not a row per agent", async () => {
    for (const json of [false, true]) {
      const out = io();
      // Port 1 on loopback: nothing listens, ssh is refused at once.
      const code = await command.run({ flags: { on: "ssh://127.0.0.1:1", ...(json ? { json: true } : {}) }, positionals: [] }, out);
      expect(code).toBe(1);
      expect(out.out).toBe("");
      expect(out.err).toMatch(/^od agents: cannot reach 127\.0\.0\.1: .*(refused|port 1)/);
      expect(out.err.trim().split("\n")).toHaveLength(1);
    }
  });

  test("a machine URL is taken without a folder; a local path or a bad URL is a usage error", async () => {
    for (const bad of ["/srv/app", "ssh://-oProxyCommand=x", "ftp://host/x"]) {
      const out = io();
      expect(await command.run({ flags: { on: bad }, positionals: [] }, out)).toBe(2);
      expect(out.err).toStartWith("od agents: ");
    }
  });
});
