/**
 * Profile-guided bytecode layout for the compiled `od` (Bun's `compile.bytecodeOrder`): a first build of the binary
 * is started the ways users start it most, each with `BUN_BYTECODE_ORDER_OUT`, and the functions those starts
 * used are laid out together at the front of the final build's bytecode. Start-up then touches fewer pages of the
 * executable: faster to the first answer and to the first line of `od run`, and a smaller idle RSS (measured in
 * bench/startup.ts and bench/od-run.ts).
 *
 * The starts, most common first (the order file list is ranked):
 *  1. `od serve`: listen, answer the first authenticated calls a browser tab makes, stop on SIGTERM;
 *  2. `od run --json` on a short Claude stream-json answer from a tiny shell-script CLI (no model, no network), in a
 *     data dir an earlier run has used: the database is there and the agent's detection is kept, as on every run but
 *     a person's first;
 *  3. that first run, on a new data dir (the database created, the agent probed): its own functions come last.
 * Profiling only the first run laid the repeat run's own code (reading a kept detection, opening an existing
 * database) out with the rest: a repeat run spent ~0.2 ms more before its agent started and after it ended (marks in
 * a build, 60 interleaved runs each).
 * Everything runs in a temp folder with a private HOME and data dir, and is removed afterwards.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const GIVE_UP_MS = 30_000;
/** The calls the UI makes when a tab opens (web/), so their handlers count as start-up code. */
const FIRST_CALLS = ["/api/app-config", "/api/agents", "/api/projects", "/api/skills", "/api/mcp", "/api/usage"];

/** A Claude Code stand-in: answers the version probe, then prints a short stream-json answer without reading stdin. */
function claudeStandIn(dir: string): string {
  const lines = [
    { type: "system", subtype: "init", cwd: dir, session_id: "profile", tools: [], model: "profile" },
    ...Array.from({ length: 20 }, (_, i) => ({
      type: "assistant",
      message: { id: `m${i}`, type: "message", role: "assistant", model: "profile", content: [{ type: "text", text: `line ${i}` }] },
      session_id: "profile",
    })),
    { type: "result", subtype: "success", is_error: false, duration_ms: 1, num_turns: 1, result: "done", session_id: "profile", usage: { input_tokens: 1, output_tokens: 1 } },
  ];
  const answer = join(dir, "answer.jsonl");
  writeFileSync(answer, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const script = join(bin, "claude");
  writeFileSync(script, `#!/bin/sh\ncase "$1" in\n  --version) echo "2.1.0 (Claude Code)"; exit 0 ;;\nesac\nexec cat "${answer}"\n`);
  chmodSync(script, 0o755);
  return bin;
}

async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = server.port!;
  await server.stop(true);
  return port;
}

async function exitedWithin(proc: Bun.Subprocess, what: string): Promise<void> {
  const timer = setTimeout(() => proc.kill("SIGKILL"), GIVE_UP_MS);
  const code = await proc.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${what} exited ${code}`);
}

async function recordServe(binary: string, dir: string, env: Record<string, string>, out: string): Promise<void> {
  const port = await freePort();
  const token = crypto.randomUUID();
  const proc = Bun.spawn([binary, "serve", "--port", String(port), "--no-open", "--data-dir", join(dir, "serve-data")], {
    env: { ...env, OD_TOKEN: token, BUN_BYTECODE_ORDER_OUT: out },
    stdout: "ignore",
    stderr: "ignore",
  });
  let exited = false;
  void proc.exited.then(() => (exited = true));
  try {
    const started = performance.now();
    const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } });
    for (;;) {
      const answer = await get(FIRST_CALLS[0]!).catch(() => undefined);
      await answer?.arrayBuffer();
      if (answer?.status === 200) break;
      if (exited) throw new Error(`od serve exited ${proc.exitCode} before it answered`);
      if (performance.now() - started > GIVE_UP_MS) throw new Error("od serve gave no authenticated answer");
      await Bun.sleep(5);
    }
    for (const path of FIRST_CALLS) {
      const answer = await get(path);
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`od serve answered ${path} with ${answer.status}`);
    }
  } finally {
    proc.kill("SIGTERM");
  }
  await exitedWithin(proc, "od serve");
}

/** `od run` twice in one data dir: the first run's profile into `out.first`, the one after it (the common run) into `out.repeat`. */
async function recordRuns(binary: string, dir: string, env: Record<string, string>, out: { first: string; repeat: string }): Promise<void> {
  const project = join(dir, "project");
  mkdirSync(project);
  const bin = claudeStandIn(dir);
  for (const order of [out.first, out.repeat]) {
    const proc = Bun.spawn([binary, "run", "--agent", "claude", "--project", project, "--data-dir", join(dir, "run-data"), "--json", "say hello"], {
      env: { ...env, PATH: `${bin}:${env.PATH}`, BUN_BYTECODE_ORDER_OUT: order },
      stdout: "ignore",
      stderr: "ignore",
    });
    await exitedWithin(proc, "od run");
  }
}

/** Records the start-up profiles of `binary` into `outDir`; returns the order files, most common start first. */
export async function recordBytecodeOrder(binary: string, outDir: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "od-bytecode-profile-"));
  try {
    const env = { PATH: "/usr/bin:/bin", HOME: dir, TMPDIR: tmpdir() };
    const [serve, run, firstRun] = [join(outDir, "serve.order"), join(outDir, "run.order"), join(outDir, "first-run.order")];
    await recordServe(binary, dir, env, serve);
    await recordRuns(binary, dir, env, { first: firstRun, repeat: run });
    return [serve, run, firstRun];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
