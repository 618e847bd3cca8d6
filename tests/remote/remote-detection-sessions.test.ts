// Detection over ssh with a stock sshd (MaxSessions 10): every def probed at once must not open more sessions on the
// shared connection than the host allows, or the probes past its limit fail as if the CLI were broken.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseLocation, type RemoteLocation } from "../../server/machines/machine-url.ts";
import { inSessionTurn, SHORT_SESSIONS_PER_HOST, sessionsInUse } from "../../server/machines/session-slots.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { baseAgentDefs } from "../../server/runtimes/registry.ts";
import { writeShim } from "../support/fake-agents.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";
import { machineAt } from "../../server/machines/machine-of.ts";

let sshd: TestSshd;
let temp: ReturnType<typeof tempDir>;
let bin: string;
beforeAll(async () => {
  sshd = await startTestSshd({ stockLimits: true });
  temp = tempDir("od-remote-sessions-");
  bin = join(temp.path, "bin");
  mkdirSync(bin);
  // Every CLI is there, so each def runs its version and help probes (and model listing where it has one) at once.
  for (const def of baseAgentDefs()) writeShim(bin, def.bin);
}, 60_000);
afterAll(async () => {
  await sshd?.close();
  temp?.[Symbol.dispose]();
});

test("every def probed at once over one connection: each is found there, none refused a session", async () => {
  const remote = { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir };
  const catalog = new AgentCatalog({
    defs: baseAgentDefs(),
    deps: () => ({ env: { ...process.env, PATH: "/usr/bin:/bin", ...sshd.env }, configuredEnv: () => ({ PATH: `${bin}:/usr/bin:/bin` }) }),
    remote,
    // Every probe's own result is what this test is about, not the pass's deadline: on a slow machine ~80 probes over
    // one connection outlast the default 10 s, and probes still running would hold the host's turns into later tests.
    deadlineMs: 100_000,
  });
  const agents = await catalog.detectOn(machineAt(`ssh://${SSH_TEST_HOST}/tmp`, remote));
  expect(agents.length).toBe(baseAgentDefs().length);
  const notFound = agents.filter((agent) => !agent.version).map((agent) => `${agent.id}: ${agent.state} ${agent.diagnostics.map((d) => d.message).join("; ")}`);
  expect(notFound).toEqual([]);
}, 120_000);

test("commands to one host take turns: never more than the limit at once, each in the order it asked", async () => {
  // A host of its own: turns are counted per host in this process, so no other test's commands can take (or be left
  // waiting for) the turns this one counts. It connects nowhere: the commands are the test's own.
  const location = parseLocation("ssh://turns-only.invalid/tmp") as RemoteLocation;
  let peak = 0;
  const started: number[] = [];
  const release: (() => void)[] = [];
  const commands = Array.from({ length: SHORT_SESSIONS_PER_HOST * 3 }, (_, i) =>
    inSessionTurn(location, async () => {
      started.push(i);
      peak = Math.max(peak, sessionsInUse(location));
      await new Promise<void>((resolve) => release.push(resolve));
      return i;
    }),
  );
  // A failing command gives its turn back too.
  const failing = inSessionTurn(location, async () => {
    throw new Error("broken pipe");
  });
  for (let round = 0; round < 3; round++) {
    await Bun.sleep(5);
    expect(sessionsInUse(location)).toBe(SHORT_SESSIONS_PER_HOST);
    for (const resolve of release.splice(0)) resolve();
  }
  expect(await Promise.all(commands)).toEqual(commands.map((_, i) => i));
  await expect(failing).rejects.toThrow("broken pipe");
  expect(peak).toBe(SHORT_SESSIONS_PER_HOST);
  expect(started).toEqual(commands.map((_, i) => i));
  expect(sessionsInUse(location)).toBe(0);
  // A container has no session limit: its commands never wait.
  const docker = parseLocation("docker://box/tmp") as RemoteLocation;
  const running = Array.from({ length: SHORT_SESSIONS_PER_HOST + 2 }, () => inSessionTurn(docker, () => Bun.sleep(5)));
  await Promise.all(running);
});
