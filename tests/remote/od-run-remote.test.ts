// Issue #21: `od run --project ssh://…` runs the agent on that host, as a user runs it (a real od process).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";
import { writeShim } from "../support/fake-agents.ts";
import { startTestSshd, SSH_TEST_HOST, stopOdMasters, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(() => sshd?.close());

async function odRun(project: (dir: string) => string) {
  using dir = tempDir("od-run-remote-");
  const bin = join(dir.path, "bin");
  const folder = join(dir.path, "project");
  const tmp = join(dir.path, "tmp");
  for (const path of [bin, folder, tmp]) mkdirSync(path);
  writeShim(bin, "claude");
  const script = join(dir.path, "script.json");
  writeFileSync(script, JSON.stringify([{ readLine: true }, { outFile: join(root, "tests", "fixtures", "claude", "text.jsonl") }]));
  // The remote side's PATH and the fake's script come from the user's agentCliEnv, as on a real host.
  const store = Store.open(join(dir.path, "data", "od.db"), openBunSqlite);
  store.appConfig.update({ agentCliEnv: { claude: { PATH: `${bin}:/usr/bin:/bin`, FAKE_CLI_SCRIPT: `@${script}` } } });
  store.close();
  const child = await spawnChild({
    argv: [process.execPath, join(root, "server", "main.ts"), "run", "--agent", "claude", "--project", project(folder), "--data-dir", join(dir.path, "data"), "--json", "hi"],
    // No fake on this machine's PATH: only the remote side has the agent.
    env: { PATH: "/usr/bin:/bin", HOME: dir.path, TMPDIR: tmp, ...sshd.env },
    stdin: "ignore",
  });
  let stdout = "";
  let stderr = "";
  const decoder = new TextDecoder();
  const errDone = (async () => {
    for await (const chunk of child.stderr) stderr += decoder.decode(chunk);
  })();
  for await (const chunk of child.stdout) stdout += decoder.decode(chunk);
  await errDone;
  const exit = await child.exited;
  stopOdMasters(join(dir.path, "data"), tmp);
  return { exit, stdout, stderr, folder };
}

describe("od run --project ssh://", () => {
  test("runs the agent on the host and exits 0 with its answer", async () => {
    const { exit, stdout, stderr } = await odRun((folder) => `ssh://${SSH_TEST_HOST}${folder}`);
    expect(stderr).toBe("");
    expect(exit.code).toBe(0);
    const events = stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(events.some((e) => e.type === "agent" && e.event.type === "text_delta")).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
  });

  test("an unreachable host fails fast with REMOTE_UNREACHABLE's message and exit 1", async () => {
    const { exit, stderr } = await odRun(() => "ssh://127.0.0.1:1/srv/app");
    expect(exit.code).toBe(1);
    expect(stderr).toMatch(/^od: cannot reach 127\.0\.0\.1/);
  });
});
