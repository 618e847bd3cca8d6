// Issue #21: detection runs where the agent runs. `od agents --on URL`, `GET /api/agents?location=URL` and
// AgentCatalog.detectOn probe the CLIs on that host, with the same defs, limits and diagnostics.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { agentRoutes } from "../../server/http/agents.ts";
import { spawnChild } from "../../server/platform/process.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { Store } from "../../server/store/store.ts";
import { startTestApp } from "../support/app.ts";
import { childOutput } from "../support/child-output.ts";
import { writeShim } from "../support/fake-agents.ts";
import { startTestSshd, SSH_TEST_HOST, stopOdMasters, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";
import { machineAt } from "../../server/machines/machine-of.ts";

const root = join(import.meta.dir, "..", "..");
let sshd: TestSshd;
let temp: ReturnType<typeof tempDir>;
let bin: string;
beforeAll(async () => {
  sshd = await startTestSshd();
  temp = tempDir("od-remote-detect-");
  bin = join(temp.path, "bin");
  mkdirSync(bin);
  writeShim(bin, "claude");
});
afterAll(async () => {
  await sshd?.close();
  temp?.[Symbol.dispose]();
});

const defs = ["claude", "codex"].map((id) => getAgentDef(id) as RuntimeAgentDef);

function catalog(): AgentCatalog {
  return new AgentCatalog({
    defs,
    // This machine's PATH has no fake at all: only the remote side's (agentCliEnv) does.
    deps: () => ({ env: { ...process.env, PATH: "/usr/bin:/bin", ...sshd.env }, configuredEnv: (id) => (id === "claude" ? { PATH: `${bin}:/usr/bin:/bin`, FAKE_CLI_VERSION: "9.8.7" } : undefined) }),
    remote: { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir },
  });
}

const here = () => machineAt(`ssh://${SSH_TEST_HOST}/tmp`, { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir });

describe("detection on an ssh:// location", () => {
  test("probes the CLIs on that host: found there with its version; missing there is not-installed naming the host", async () => {
    const agents = await catalog().detectOn(here());
    const claude = agents.find((a) => a.id === "claude")!;
    expect(claude).toMatchObject({ state: "available", version: "9.8.7" });
    const codex = agents.find((a) => a.id === "codex")!;
    expect(codex.state).toBe("unavailable");
    expect(codex.diagnostics[0]).toMatchObject({ reason: "not-installed" });
    expect(codex.diagnostics[0]!.message).toContain(SSH_TEST_HOST);
  });

  test("a probe that hangs there is timed out like a local one, and swept there: nothing of it keeps running", async () => {
    const marker = join(temp.path, `hung-${Date.now()}.log`);
    const hung = new AgentCatalog({
      defs: [defs[0]!],
      deps: () => ({
        env: { ...process.env, PATH: "/usr/bin:/bin", ...sshd.env },
        configuredEnv: () => ({ PATH: `${bin}:/usr/bin:/bin`, FAKE_CLI_VERSION_DELAY_MS: "600000", FAKE_CLI_PROBE_LOG: marker }),
        timeouts: { versionMs: 300, helpMs: 300, modelsMs: 300, authMs: 300 },
      }),
      remote: { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir },
    });
    const [claude] = await hung.detectOn(here());
    expect(claude!.diagnostics.some((d) => d.reason === "probe-timeout")).toBe(true);
    expect(existsSync(marker)).toBe(true);
    expect(processesWithEnv(`FAKE_CLI_PROBE_LOG=${marker}`)).toEqual([]);
  });

  test("model discovery over ACP is never started on this machine for an agent found there", async () => {
    const kiro = getAgentDef("kiro") as RuntimeAgentDef;
    writeShim(bin, kiro.bin);
    const discovered: string[][] = [];
    const acp = new AgentCatalog({
      defs: [kiro],
      deps: () => ({
        env: { ...process.env, PATH: "/usr/bin:/bin", ...sshd.env },
        configuredEnv: () => ({ PATH: `${bin}:/usr/bin:/bin` }),
        discoverAcpModels: async ({ argv }) => {
          discovered.push(argv);
          return [{ id: "local-model", label: "from this machine" }];
        },
      }),
      remote: { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir },
    });
    const [found] = await acp.detectOn(here());
    expect(found).toMatchObject({ id: "kiro", state: "available", modelsSource: "fallback" });
    expect(discovered).toEqual([]);
  });

  test("an unreachable host is one typed diagnostic per agent, fast", async () => {
    const started = Date.now();
    const agents = await catalog().detectOn(machineAt("ssh://127.0.0.1:1", { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir }));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(agents.map((a) => [a.id, a.state, a.diagnostics[0]?.reason])).toEqual([
      ["claude", "unavailable", "remote-unreachable"],
      ["codex", "unavailable", "remote-unreachable"],
    ]);
  });

  test("GET /api/agents?location= answers with that host's agents; a bad location is a 400", async () => {
    await using app = await startTestApp({ modules: [agentRoutes(catalog())] });
    const res = await app.call(`/api/agents?location=${encodeURIComponent(`ssh://${SSH_TEST_HOST}/tmp`)}`);
    expect(res.status).toBe(200);
    const { agents } = (await res.json()) as { agents: AgentInfo[] };
    expect(agents.find((a) => a.id === "claude")).toMatchObject({ state: "available", version: "9.8.7" });
    const machine = await app.call(`/api/agents?location=${encodeURIComponent(`ssh://${SSH_TEST_HOST}`)}`);
    expect(machine.status).toBe(200);
    const bad = await app.call(`/api/agents?location=${encodeURIComponent("ssh://-oProxyCommand=x/tmp")}`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("INVALID_LOCATION");
  });

  test("od agents --on URL --json prints the same AgentInfo JSON for that host", async () => {
    using dir = tempDir("od-agents-on-");
    const tmp = join(dir.path, "tmp");
    mkdirSync(tmp);
    const store = Store.open(join(dir.path, "data", "od.db"), openBunSqlite);
    store.appConfig.update({ agentCliEnv: { claude: { PATH: `${bin}:/usr/bin:/bin`, FAKE_CLI_VERSION: "9.8.7" } } });
    store.close();
    const child = await spawnChild({
      // A machine URL without a folder: detection is the same for every folder there.
      argv: [process.execPath, join(root, "server", "main.ts"), "agents", "--on", `ssh://${SSH_TEST_HOST}`, "--json"],
      // Every CLI's own result (≤ 0: no pass deadline): on a slow machine the ~80 probes there outlast the default 10 s.
      env: { PATH: "/usr/bin:/bin", HOME: dir.path, TMPDIR: tmp, OD_DATA_DIR: join(dir.path, "data"), OD_DETECTION_DEADLINE_MS: "0", ...sshd.env },
      stdin: "ignore",
    });
    const { stdout, code } = await childOutput(child);
    stopOdMasters(join(dir.path, "data"), tmp);
    expect(code).toBe(0);
    const agents = JSON.parse(stdout) as AgentInfo[];
    expect(agents.find((a) => a.id === "claude")).toMatchObject({ state: "available", version: "9.8.7" });
  }, 120_000);
});

/** Live (non-zombie) processes whose environment holds `entry`. */
function processesWithEnv(entry: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      if (readFileSync(`/proc/${name}/environ`, "latin1").split("\0").includes(entry)) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
