/**
 * Issue #21: the real pi CLI, driven through `od run --project ssh://…` against the fake model server: the agent
 * starts on the "remote" side (this machine's own sshd, tests/support/sshd.ts), found on that side's PATH (set by
 * agentCliEnv, as a user would), and its answer and its file write come back exactly as for a local run.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RunEvent } from "../../server/contracts/runs.ts";
import { spawnChild } from "../../server/platform/process.ts";
import { startTestSshd, SSH_TEST_HOST, stopMasters, type TestSshd } from "../support/sshd.ts";
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

async function odRunRemote(prompt: string): Promise<{ events: RunEvent[]; code: number | null; stderr: string }> {
  const tmp = join(sandbox.root, "od-tmp");
  mkdirSync(tmp, { recursive: true });
  const child = await spawnChild({
    argv: [process.execPath, join(REPO_ROOT, "server", "main.ts"), "run", "--agent", sandbox.agentId, "--project", `ssh://${SSH_TEST_HOST}${sandbox.project}`, "--data-dir", sandbox.dataDir, "--json", prompt],
    // No PI_BIN override here: the remote side finds `pi` on its PATH.
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: sandbox.home, TMPDIR: tmp, ...sshd.env },
    stdin: "ignore",
  });
  let stdout = "";
  let stderr = "";
  const decoder = new TextDecoder();
  const errors = (async () => {
    for await (const chunk of child.stderr) stderr += decoder.decode(chunk);
  })();
  for await (const chunk of child.stdout) stdout += decoder.decode(chunk);
  await errors;
  const exit = await child.exited;
  const controlDir = join(tmp, `od-ssh-${process.getuid!()}`);
  if (existsSync(controlDir)) stopMasters(controlDir);
  const events = stdout.split("\n").filter(Boolean).flatMap((line) => {
    const parsed = RunEvent.safeParse(JSON.parse(line));
    return parsed.success ? [parsed.data] : [];
  });
  return { events, code: exit.code, stderr };
}

test("real pi over ssh: a text run and a file write", async () => {
  const text = await odRunRemote(TEXT_PROMPT);
  expect(checkText({ events: text.events, exitCode: text.code, survivors: [], secondsAfterSignal: null })).toEqual([]);
  const write = await odRunRemote(WRITE_PROMPT);
  expect(write.events.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
  expect(readFileSync(join(sandbox.project, WRITE_FILE), "utf8")).toContain(WRITE_CONTENT);
}, 5 * 60_000);
