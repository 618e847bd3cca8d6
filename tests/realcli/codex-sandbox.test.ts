/**
 * Issue #36, item 6, with the real codex: detection on each machine asks whether codex's own sandbox can start there.
 * In the test Docker engine's container (no user namespaces under Docker's default seccomp profile) bubblewrap
 * cannot, and `od agents --on docker://…` says so with that machine's setting; the setting turns the probe off; over
 * ssh to this machine the answer is the one codex gives here.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { dataPaths } from "../../server/paths.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";
import { startTestDocker, type TestDocker } from "../support/dockerd.ts";
import { runOd } from "../support/od-cli.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";
import { recipeFor } from "./recipes.ts";
import { ensureRealClis } from "./setup.ts";

const temp = tempDir("od-codex-sandbox-");
const bin = join(temp.path, "bin");
const dataDir = join(temp.path, "data");
const codexHome = join(temp.path, "codex-home");
let docker: TestDocker;
let sshd: TestSshd;

beforeAll(async () => {
  await ensureRealClis();
  for (const dir of [bin, dataDir, codexHome]) mkdirSync(dir, { recursive: true });
  // The real binary, found on each machine's PATH: the container mounts the checkout and the temp folder.
  symlinkSync(recipeFor("codex", "http://127.0.0.1:9", temp.path).binPath, join(bin, "codex"));
  [docker, sshd] = await Promise.all([startTestDocker(), startTestSshd()]);
}, 15 * 60_000);

afterAll(async () => {
  await Promise.all([docker?.close(), sshd?.close()]);
  temp[Symbol.dispose]();
});

function setMachineEnv(key: string, extra: Record<string, string> = {}): void {
  const store = Store.open(dataPaths(dataDir).database, openBunSqlite);
  try {
    store.appConfig.update({ machineEnv: { [key]: { PATH: `${bin}:/usr/bin:/bin`, CODEX_HOME: codexHome, ...extra } } });
  } finally {
    store.close();
  }
}

async function codexOn(url: string): Promise<AgentInfo> {
  const { code, stdout, stderr } = await runOd(["agents", "codex", "--on", url, "--json", "--data-dir", dataDir], { ...docker.env, ...sshd.env });
  expect(stderr).toBe("");
  expect(code).toBe(0);
  return JSON.parse(stdout) as AgentInfo;
}

const sandboxWarnings = (agent: AgentInfo) => agent.diagnostics.filter((d) => d.reason === "sandbox-unavailable");

test("in a container without user namespaces: codex is found, and its sandbox is said not to start there, with the setting for that container", async () => {
  const key = `docker://${docker.container}`;
  setMachineEnv(key);
  const agent = await codexOn(key);
  expect(agent.state).toBe("available");
  const [warning] = sandboxWarnings(agent);
  expect(warning?.severity).toBe("warning");
  expect(warning?.message).toContain("user namespaces");
  expect(warning?.detail).toContain("bwrap:");
  expect(warning?.detail).toContain(`OD_CODEX_SANDBOX=danger-full-access for this machine (app-config \`machineEnv\` under "${key}")`);
  expect(agent.probeMs.sandbox).toBeGreaterThan(0);

  // That container's setting: no sandbox there, so nothing to ask and nothing to warn about.
  setMachineEnv(key, { OD_CODEX_SANDBOX: "danger-full-access" });
  const optedOut = await codexOn(key);
  expect(sandboxWarnings(optedOut)).toEqual([]);
  expect(optedOut.probeMs.sandbox).toBeUndefined();
}, 120_000);

test("over ssh to this machine, the answer is the one codex's sandbox gives here", async () => {
  const key = `ssh://${SSH_TEST_HOST}`;
  setMachineEnv(key);
  const here = spawnSync(join(bin, "codex"), ["sandbox", "--", "true"], { env: { PATH: "/usr/bin:/bin", CODEX_HOME: codexHome, HOME: temp.path }, encoding: "utf8" });
  const agent = await codexOn(key);
  expect(agent.state).toBe("available");
  expect(sandboxWarnings(agent)).toHaveLength(here.status === 0 ? 0 : 1);
}, 120_000);
