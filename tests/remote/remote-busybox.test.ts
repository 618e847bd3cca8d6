// A host whose tools are busybox's (an Alpine image), not GNU's: what needs GNU find, sed and coreutils says so with
// a typed error instead of answering with a silently empty list, and what can be done with any tools still works.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Credentials } from "../../server/http/credentials.ts";
import { projectRoutes } from "../../server/http/projects.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { readRemoteProjectSkills } from "../../server/remote/remote-skills.ts";
import { parseLocation, type RemoteLocation } from "../../server/machines/machine-url.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { startTestApp, TEST_TOKEN, testWorktrees } from "../support/app.ts";
import { agentEvents, endOf, fakeCliEnvThere, processesWithRunCookie, runHarness, type FakeStep } from "../support/fake-agents.ts";
import { isLivePid, killSurvivors } from "../support/survivors.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";
import { remoteMachine } from "../../server/machines/machine-of.ts";
import { DiskSpace } from "../../server/store/disk-space.ts";

// Each test starts and ends runs over a real ssh connection (a login, the run, its sweep there): seconds apiece on an
// idle machine, and several times that on a loaded 2-core one, where bun's 20 s default failed them at random.
setDefaultTimeout(60_000);

const BUSYBOX = ["/usr/bin/busybox", "/bin/busybox"].find((path) => existsSync(path));
let sshd: TestSshd;
let temp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  if (!BUSYBOX) throw new Error("busybox is not installed (apt-get install busybox): this test plays an Alpine host with it");
  temp = tempDir("od-remote-busybox-");
  const applets = join(temp.path, "applets");
  mkdirSync(applets);
  execFileSync(BUSYBOX, ["--install", "-s", applets]);
  // Every command there finds busybox's applets first, its shell included; ssh's own helpers stay reachable.
  sshd = await startTestSshd({ sessionPath: `${applets}:/usr/bin:/bin` });
}, 60_000);
afterAll(async () => {
  await sshd?.close();
  temp?.[Symbol.dispose]();
});

async function setup() {
  const dataDir = join(temp.path, `data-${crypto.randomUUID()}`);
  mkdirSync(dataDir);
  const credentials = new Credentials(TEST_TOKEN);
  const remote = { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir };
  const base = await startTestApp({ dataDir, credentials });
  const projects = new ProjectService(base.store, dataDir, remote);
  const app = await startTestApp({ dataDir, credentials, modules: [projectRoutes(base.store, projects, credentials, testWorktrees(base.store), new DiskSpace(undefined))] });
  const folder = join(temp.path, `proj-${crypto.randomUUID()}`);
  mkdirSync(join(folder, ".od", "skills", "greet"), { recursive: true });
  writeFileSync(join(folder, "index.html"), "<p>hi</p>");
  writeFileSync(join(folder, "-n"), "a file named like an option");
  writeFileSync(join(folder, ".od", "skills", "greet", "SKILL.md"), "---\nname: greet\ndescription: Says hello\n---\nSay hello.\n");
  const created = await app.json("POST", "/api/projects", { name: "alpine", path: `ssh://${SSH_TEST_HOST}${folder}` });
  expect(created.status).toBe(201);
  const { project } = (await created.json()) as { project: { id: string } };
  return {
    ...app,
    project,
    location: parseLocation(`ssh://${SSH_TEST_HOST}${folder}`) as RemoteLocation,
    remote,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      await base[Symbol.asyncDispose]();
    },
  };
}

describe("a host with busybox tools", () => {
  test("the files panel's list says GNU tools are missing there (502 REMOTE_TOOLS_MISSING), not an empty folder", async () => {
    await using t = await setup();
    const list = await t.call(`/api/projects/${t.project.id}/files`);
    expect(list.status).toBe(502);
    const { error } = (await list.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("REMOTE_TOOLS_MISSING");
    expect(error.message).toContain("GNU find");
    expect(error.message).toContain(SSH_TEST_HOST);
  });

  test("a file is still read there with busybox's realpath and ls; escapes stay out", async () => {
    await using t = await setup();
    const raw = (path: string) => t.call(`/api/projects/${t.project.id}/files/raw?path=${encodeURIComponent(path)}`);
    const page = await raw("index.html");
    expect(page.status).toBe(200);
    expect(await page.text()).toBe("<p>hi</p>");
    const option = await raw("-n");
    expect(option.status).toBe(200);
    expect(await option.text()).toBe("a file named like an option");
    for (const path of ["/etc/hostname", "../../etc/hostname", "missing", ".od"]) expect([path, (await raw(path)).status]).toEqual([path, 404]);
  });

  test("the project's own skills say GNU tools are missing there, not that it has none", async () => {
    await using t = await setup();
    await expect(readRemoteProjectSkills(remoteMachine(t.location, t.remote), t.location.path)).rejects.toMatchObject({ kind: "machine_failed", code: "REMOTE_TOOLS_MISSING" });
  });
});

/** A run harness whose project is on the busybox host; the fake CLI reaches it through agentCliEnv, as in remote-runs. */
async function remoteRuns(steps: FakeStep[]) {
  const h = await runHarness({
    defs: [getAgentDef("claude") as RuntimeAgentDef],
    shims: { claude: undefined },
    steps,
    timeouts: { cancelGraceMs: 300 },
    projectPath: (dir) => `ssh://${SSH_TEST_HOST}${dir}`,
    remote: { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir },
  });
  h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
  return h;
}

async function poll(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 30_000; !check(); await Bun.sleep(25)) if (Date.now() > deadline) throw new Error("condition not met in time");
}

describe("runs on a host with busybox tools", () => {
  test("a run streams its answer through busybox's shell", async () => {
    await using h = await remoteRuns([{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }]);
    const { events, runId } = await h.run({ agentId: "claude", message: "hello, alpine" });
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
    expect(agentEvents(events).some((event) => event.type === "text_delta")).toBe(true);
    expect(processesWithRunCookie(runId)).toEqual([]);
  });

  test("cancel's sweep there (busybox grep, sed and kill) leaves no TERM-ignoring grandchild behind", async () => {
    await using h = await remoteRuns([{ readLine: true }, { orphan: "holdStdout" }, { ignoreTerm: true }, { out: '{"type":"system","subtype":"init","session_id":"s1"}' }, { hang: true }]);
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    try {
      await poll(() => h.ledger().some((line) => line.event === "orphan"));
      await poll(() => processesWithRunCookie(created.runId).length >= 2);
      const remotePids = processesWithRunCookie(created.runId);
      expect(await h.service.cancel(created.runId)).toBe(true);
      for await (const event of h.service.events(created.runId)) if (event.type === "end") expect(event).toMatchObject({ status: "canceled" });
      // A cancel answers while the sweep there may still be going on (it is retried until it finishes).
      await poll(() => remotePids.filter(isLivePid).length === 0 && processesWithRunCookie(created.runId).length === 0);
    } finally {
      killSurvivors(h.ledgerPath, [created.runId]);
    }
    // Detection, a run and its sweep over several ssh sessions: on a loaded 2-core machine each session takes seconds.
  }, 120_000);
});
