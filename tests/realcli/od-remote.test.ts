/**
 * Issue #21: the real pi CLI, driven through `od run --project ssh://…` against the fake model server: the agent
 * starts on the "remote" side (this machine's own sshd, tests/support/sshd.ts), found on that side's PATH (set by
 * agentCliEnv, as a user would), and its answer and its file write come back exactly as for a local run; a cancel
 * and a hang-up mid-tool leave nothing running there, a TERM-ignoring grandchild in its own session included.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RunEvent } from "../../server/contracts/runs.ts";
import { spawnChild, type ChildHandle } from "../../server/platform/process.ts";
import { processesWithRunCookie } from "../support/fake-agents.ts";
import { startTestSshd, SSH_TEST_HOST, stopOdMasters, type TestSshd } from "../support/sshd.ts";
import { createOdSandbox, seedAgentEnv, type OdSandbox } from "./od-sandbox.ts";
import { checkText, TEXT_PROMPT, WRITE_CONTENT, WRITE_FILE, WRITE_PROMPT } from "./od-scenarios.ts";
import { baseEnv } from "./recipes.ts";
import { ensureRealClis } from "./setup.ts";

const REPO_ROOT = join(import.meta.dir, "..", "..");
let sshd: TestSshd;
let sandbox: OdSandbox;

beforeAll(async () => {
  await ensureRealClis();
  sshd = await startTestSshd();
  sandbox = await createOdSandbox("pi");
  // Nothing of od's own environment reaches the remote agent: its PATH (the folder with the `pi` shim), HOME and
  // the recipe's variables come from agentCliEnv, as a user would set them for that host.
  seedAgentEnv(sandbox.dataDir, sandbox.agentId, { ...baseEnv(sandbox.home, sandbox.recipe), PATH: `${join(sandbox.root, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}` });
}, 15 * 60_000);

afterAll(async () => {
  await sandbox?.dispose();
  await sshd?.close();
});

/** What a test may do to a run while it streams: given the events so far and the od process. */
type MidRun = (events: RunEvent[], od: ChildHandle) => Promise<void>;

async function odRunRemote(prompt: string, midRun?: MidRun): Promise<{ events: RunEvent[]; code: number | null; stderr: string }> {
  const tmp = join(sandbox.root, "od-tmp");
  mkdirSync(tmp, { recursive: true });
  const child = await spawnChild({
    argv: [process.execPath, join(REPO_ROOT, "server", "main.ts"), "run", "--agent", sandbox.agentId, "--project", `ssh://${SSH_TEST_HOST}${sandbox.project}`, "--data-dir", sandbox.dataDir, "--json", prompt],
    // No PI_BIN override here: the remote side finds `pi` on its PATH.
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: sandbox.home, TMPDIR: tmp, ...sshd.env },
    stdin: "ignore",
  });
  const events: RunEvent[] = [];
  let stderr = "";
  const decoder = new TextDecoder();
  const errors = (async () => {
    for await (const chunk of child.stderr) stderr += decoder.decode(chunk);
  })();
  const acting = midRun?.(events, child);
  let buffered = "";
  for await (const chunk of child.stdout) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
      const parsed = RunEvent.safeParse(JSON.parse(buffered.slice(0, newline)));
      if (parsed.success) events.push(parsed.data);
      buffered = buffered.slice(newline + 1);
    }
  }
  await errors;
  await acting;
  const exit = await child.exited;
  stopOdMasters(sandbox.dataDir, tmp);
  return { events, code: exit.code, stderr };
}

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); await Bun.sleep(50)) if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}

/** The run id once the start event is in. */
const runIdOf = (events: RunEvent[]) => (events.find((event) => event.type === "start") as { runId?: string } | undefined)?.runId;

/**
 * A shell tool call that leaves a TERM-ignoring grandchild in a session of its own (out of reach of any process
 * group) and waits: only the run-cookie sweep on the remote side can end it.
 */
const STUBBORN_PROMPT = "Run it. [[od:shell cmd=trap '' TERM; setsid sleep 300 & sleep 300]]";

/** Once the stubborn grandchild runs there (its own session, the run's cookie), its pid; then `act`. */
function whenStubborn(act: (od: ChildHandle, runId: string) => void): MidRun {
  return async (events, od) => {
    await until(() => runIdOf(events) !== undefined, "the run's start event");
    const runId = runIdOf(events)!;
    await until(() => processesWithRunCookie(runId).some((pid) => isSleepInOwnSession(pid)), "the TERM-ignoring grandchild");
    act(od, runId);
  };
}

function isSleepInOwnSession(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").startsWith("sleep\0") && Number(fields[3]) === pid;
  } catch {
    return false;
  }
}

test("real pi over ssh: a text run and a file write", async () => {
  const text = await odRunRemote(TEXT_PROMPT);
  expect(checkText({ events: text.events, exitCode: text.code, survivors: [], secondsAfterSignal: null })).toEqual([]);
  const write = await odRunRemote(WRITE_PROMPT);
  expect(write.events.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
  expect(readFileSync(join(sandbox.project, WRITE_FILE), "utf8")).toContain(WRITE_CONTENT);
}, 5 * 60_000);

test("real pi over ssh: SIGINT mid-tool ends the run canceled, and the TERM-ignoring grandchild there is gone", async () => {
  let runId = "";
  const run = await odRunRemote(
    STUBBORN_PROMPT,
    whenStubborn((od, id) => {
      runId = id;
      od.kill("SIGINT");
    }),
  );
  expect(run.events.at(-1)).toMatchObject({ type: "end", status: "canceled" });
  expect(run.code).toBe(130);
  await until(() => processesWithRunCookie(runId).length === 0, "no process left with the run's cookie", 15_000);
}, 5 * 60_000);

test("real pi over ssh: the host hanging up mid-tool fails the run as a lost connection, and nothing is left there", async () => {
  let runId = "";
  const run = await odRunRemote(
    STUBBORN_PROMPT,
    whenStubborn((_od, id) => {
      runId = id;
      // The sshd process serving the agent's session: killing it is the host hanging up.
      process.kill(sshdSessionOf(processesWithRunCookie(id)), "SIGKILL");
    }),
  );
  expect(run.events.at(-1)).toMatchObject({ type: "end", status: "failed", failureDetail: "remote_connection_lost" });
  await until(() => processesWithRunCookie(runId).length === 0, "no process left with the run's cookie", 15_000);
}, 5 * 60_000);

/** The sshd process that is the parent of one of `pids` (the agent, started by `exec` in its session). */
function sshdSessionOf(pids: number[]): number {
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (readFileSync(`/proc/${parent}/cmdline`, "latin1").startsWith("sshd")) return parent;
  }
  throw new Error("no process of the run is served by an sshd session");
}
