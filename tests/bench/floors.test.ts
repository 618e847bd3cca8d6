// The floors the benchmarks report beside od (bench/fixtures, compiled by compileFixture exactly as od is, each laid
// out by a profiled first run) do the work they stand for, so a floor is never the figure of a program that failed
// early. Each check runs twice: once on the first build, recording its profile, once on the build laid out by it.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readBlocks, sseData, startBenchServer } from "../../bench/support/daemon.ts";
import { compileFixture } from "../../bench/support/od.ts";
import { tempDir } from "../support/temp.ts";

/** Starts the stack floor, checks its authenticated GET /api/projects (and its refusal without the token), stops it. */
async function checkStackFloor(binary: string, dataDir: string, env: Record<string, string> = {}): Promise<void> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  const token = "t".repeat(43);
  const child = Bun.spawn([binary, "--port", String(port), "--data-dir", dataDir], { env: { OD_TOKEN: token, PATH: "/usr/bin:/bin", ...env }, stdout: "ignore", stderr: "pipe" });
  try {
    const url = `http://127.0.0.1:${port}/api/projects`;
    let answer: Response | undefined;
    for (let tries = 0; !answer && tries < 500; tries++) {
      answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
      if (!answer) await Bun.sleep(10);
    }
    expect(answer?.status).toBe(200);
    expect(await answer!.json()).toEqual({ projects: [], config: { theme: "system" } });
    expect((await fetch(url)).status).toBe(401);
  } finally {
    child.kill("SIGTERM");
    // It stops on SIGTERM as od does (exit 0), which is also what lets a profiled build write its order.
    expect(await child.exited).toBe(0);
  }
}

test("the stack floor builds, starts, and answers the authenticated GET /api/projects the startup bench polls (and refuses it without the token)", async () => {
  using dir = tempDir("od-stack-floor-");
  const binary = await compileFixture("stack-floor", dir.path, (first, profile) => checkStackFloor(first, join(dir.path, "profile"), profile));
  await checkStackFloor(binary, join(dir.path, "data"));
}, 60_000);

/** A CLI that reads its prompt line and prints two JSON lines, the second quoting the prompt. */
function writeEchoCli(dir: string): string {
  const cli = join(dir, "cli.sh");
  writeFileSync(cli, '#!/bin/sh\nread prompt\nprintf \'{"n":1}\\n{"said":"%s"}\\n\' "$prompt"\n', { mode: 0o755 });
  return cli;
}

/** Runs the line relay on the echo CLI and checks what it printed. */
async function checkLineRelay(relay: string, cli: string, env: Record<string, string> = {}, flags: string[] = []): Promise<void> {
  const child = Bun.spawn([relay, ...flags, cli], { stdin: new TextEncoder().encode("hello\n"), stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin", ...env } });
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  expect(code).toBe(0);
  expect(out.trim().split("\n").map((line) => JSON.parse(line))).toEqual([
    { type: "agent", id: 1, event: { n: 1 } },
    { type: "agent", id: 2, event: { said: "hello" } },
  ]);
}

test("the line relay passes its stdin to the CLI and prints each of the CLI's JSON lines as a numbered event", async () => {
  using dir = tempDir("od-line-relay-");
  const cli = writeEchoCli(dir.path);
  const relay = await compileFixture("line-relay", dir.path, (first, profile) => checkLineRelay(first, cli, profile));
  await checkLineRelay(relay, cli);
  // The growth floor's mode: a full collection after every few bytes relayed here (every line), the same output.
  await checkLineRelay(relay, cli, {}, ["--collect-every-mib", "0.00001"]);
  const refused = Bun.spawn([relay, "--collect-every-mib", "many", cli], { stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
  const [err, code] = await Promise.all([new Response(refused.stderr).text(), refused.exited]);
  expect(code).not.toBe(0);
  expect(err).toContain("usage: line-relay [--collect-every-mib N] CLI [ARG...]");
}, 60_000);

test("the recording relay commits the run before its CLI starts, then its events and its end, and prints the events", async () => {
  using dir = tempDir("od-recording-relay-");
  // The CLI prints how many runs the relay's database held as running while it ran: the record is there before it.
  const dataDir = join(dir.path, "data");
  const countRunning = join(dir.path, "count-running.ts");
  writeFileSync(
    countRunning,
    'import { Database } from "bun:sqlite";\n' +
      'const db = new Database(process.argv[2], { readonly: true });\n' +
      "console.log(db.query(\"SELECT count(*) AS n FROM runs WHERE status = 'running'\").get().n);\n",
  );
  const cli = join(dir.path, "cli.sh");
  // The database it counts in is the relay's of the check (RELAY_DB, which the relay passes on with its environment).
  const running = `"${process.execPath}" "${countRunning}" "$RELAY_DB"`;
  writeFileSync(cli, `#!/bin/sh\nread prompt\nprintf '{"said":"%s","running":%s}\\n' "$prompt" "$(${running})"\n`, { mode: 0o755 });
  const relay = await compileFixture("recording-relay", dir.path, async (first, profile) => {
    const profileDir = join(dir.path, "profile");
    mkdirSync(profileDir);
    const child = Bun.spawn([first, join(profileDir, "data"), writeEchoCli(profileDir)], { stdin: new TextEncoder().encode("hello\n"), stdout: "ignore", stderr: "inherit", env: { PATH: "/usr/bin:/bin", ...profile } });
    expect(await child.exited).toBe(0);
  });
  const check = async (runDataDir: string, flags: string[] = []) => {
    const env = { PATH: "/usr/bin:/bin", RELAY_DB: join(runDataDir, "relay.db") };
    const child = Bun.spawn([relay, ...flags, runDataDir, cli], { stdin: new TextEncoder().encode("hello\n"), stdout: "pipe", stderr: "pipe", env });
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out.trim().split("\n").map((line) => JSON.parse(line))).toEqual([{ type: "agent", id: 1, event: { said: "hello", running: 1 } }]);
    const db = new Database(join(runDataDir, "relay.db"), { readonly: true });
    try {
      expect(db.query("SELECT status, exit_code AS exitCode FROM runs").all()).toEqual([{ status: "ended", exitCode: 0 }]);
      expect(db.query("SELECT last_id AS lastId, events FROM run_event_batches").all()).toEqual([{ lastId: 1, events: out.trim() }]);
    } finally {
      db.close();
    }
  };
  await check(dataDir);
  // The growth floor's mode: a full collection after every few bytes relayed here (every chunk), the same run kept.
  await check(join(dir.path, "collecting"), ["--collect-every-mib", "0.00001"]);
  const refused = Bun.spawn([relay, "--collect-every-mib", "many", dataDir, cli], { stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
  const [err, code] = await Promise.all([new Response(refused.stderr).text(), refused.exited]);
  expect(code).not.toBe(0);
  expect(err).toContain("usage: recording-relay [--collect-every-mib N] DATA_DIR CLI [ARG...]");
}, 60_000);

test("the SSE relay streams a run's lines as numbered events to a reader and ends its stream with an end frame", async () => {
  using dir = tempDir("od-sse-relay-");
  const cli = writeEchoCli(dir.path);
  const check = async (relay: string, env: Record<string, string> = {}) => {
    await using server = await startBenchServer([relay, "--port", "0", "--", cli], { PATH: "/usr/bin:/bin", ...env });
    const runId = await server.startRun(await server.project(join(dir.path, "p")), "any");
    const blocks: string[] = [];
    await readBlocks((await server.events(runId)).body!, "\n\n", (block) => blocks.push(block));
    expect(blocks.map(sseData).map((data) => JSON.parse(data))).toEqual([
      { type: "agent", id: 1, event: { n: 1 } },
      { type: "agent", id: 2, event: { said: "go" } },
      { type: "end" },
    ]);
  };
  await check(await compileFixture("sse-relay", dir.path, check));
}, 60_000);
