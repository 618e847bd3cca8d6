#!/usr/bin/env bun
/**
 * Start-up and idle memory of `od` (dist/od) against a minimal compiled Bun.serve binary built in the same run (the
 * floor any Bun binary pays), started alternately after one untimed start of each:
 *  - exec → engine ready: the first 200 of an authenticated API call that needs the engine (GET /api/projects with
 *    the bearer token). od's /api/health answers earlier, before it can read anything, and GET /api/app-config as
 *    soon as its database is open (server/http/early-answers.ts), before the engine (Elysia, the routes, the run
 *    machinery) has loaded: both would time less than what a page needs before it can show a project, so neither is
 *    the measure (the app-config figure, 1.5×, was reported here until issue #40 said so). The baseline answers the
 *    same authenticated GET. Target ≤ 2× the baseline.
 *  - idle RSS: VmRSS 1.5 s after engine ready, nothing else happening. Beside it, the same start of
 *    bench/fixtures/stack-floor.ts compiled exactly like od: the libraries od's idle daemon is built on, used once,
 *    without od's code. Target: od ≤ that floor + 1 MB, round by round (what od's own code adds to its idle RSS).
 *   bun run bench/startup.ts            (OD_BENCH_REPS=N for N rounds, default 5)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomSecret } from "../server/http/credentials.ts";
import { figureOf, formatStats, type Figure } from "./support/figures.ts";
import { benchEnv, compileFixture, odBinary, workDir } from "./support/od.ts";
import { benchReps, interleaved, procStatusMb } from "./support/process.ts";
import { loadText, note, reportFigures } from "./support/report.ts";
import { summarize } from "./support/stats.ts";

const IDLE_SETTLE_MS = 1500;
/** The first route the page calls that only the loaded engine answers. */
const ENGINE_ROUTE = "/api/projects";
const GIVE_UP_MS = 15_000;

async function buildBaseline(dir: string): Promise<string> {
  const source = join(dir, "baseline.ts");
  writeFileSync(
    source,
    `const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
     const expected = "Bearer " + process.env.OD_TOKEN;
     Bun.serve({ port, hostname: "127.0.0.1", fetch: (r) => r.headers.get("authorization") === expected ? Response.json({ projects: [] }) : new Response("no", { status: 401 }) });`,
  );
  const outfile = join(dir, "baseline");
  const result = await Bun.build({ entrypoints: [source], compile: { outfile }, minify: true, bytecode: true, target: "bun" });
  if (!result.success) throw new Error("baseline build failed");
  return outfile;
}

async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = server.port!;
  await server.stop(true);
  return port;
}

/** Spawn, poll the authenticated GET every 2 ms until a 200; then, after a quiet while, the idle RSS. */
async function startOnce(argv: (port: number) => string[], env: Record<string, string>, token: string): Promise<{ readyMs: number; idleMb: number }> {
  const port = await freePort();
  const started = performance.now();
  const proc = Bun.spawn(argv(port), { env: { ...env, OD_TOKEN: token }, stdout: "ignore", stderr: "ignore" });
  try {
    let readyMs: number | undefined;
    while (readyMs === undefined) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}${ENGINE_ROUTE}`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (res.status === 200) readyMs = performance.now() - started;
      } catch {}
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`${argv(port)[0]} gave no authenticated 200 within ${GIVE_UP_MS} ms`);
      if (readyMs === undefined) await Bun.sleep(2);
    }
    await Bun.sleep(IDLE_SETTLE_MS);
    const idleMb = await procStatusMb(proc.pid, "VmRSS");
    if (idleMb === undefined) throw new Error("process gone before its idle RSS was read");
    return { readyMs, idleMb };
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

export async function measureStartup(): Promise<Figure[]> {
  using dir = workDir("startup");
  const od = await odBinary();
  const baseline = await buildBaseline(dir.path);
  const env = benchEnv(join(dir.path, "bin"), dir.path);
  const token = randomSecret();
  // Its bytecode laid out by one start as the bench makes it (listen, the authenticated GET, stop), as od's is by `od serve`.
  const stackFloor = await compileFixture("stack-floor", dir.path, (binary, profile) =>
    startOnce((port) => [binary, "--port", String(port), "--data-dir", join(dir.path, "floor-profile")], { ...env, ...profile }, token).then(() => undefined),
  );
  const dataDir = join(dir.path, "data");
  note(`startup: ${loadText()}`);
  const runs = await interleaved(benchReps(), {
    od: () => startOnce((port) => [od, "--port", String(port), "--no-open", "--data-dir", dataDir], env, token),
    baseline: () => startOnce((port) => [baseline, "--port", String(port)], env, token),
    stackFloor: () => startOnce((port) => [stackFloor, "--port", String(port), "--data-dir", join(dir.path, "floor")], env, token),
  });
  note(`startup: idle RSS of the stack alone (bench/fixtures/stack-floor.ts): ${formatStats(summarize(runs.stackFloor.map((r) => r.idleMb)), "MB")}; od's: ${formatStats(summarize(runs.od.map((r) => r.idleMb)), "MB")}`);
  const ratios = runs.od.map((run, i) => run.readyMs / runs.baseline[i]!.readyMs);
  return [
    figureOf({
      id: "startup.engineReady",
      title: "exec → engine ready (1st 200 of GET /api/projects)",
      unit: "ms",
      od: runs.od.map((r) => r.readyMs),
      baseline: runs.baseline.map((r) => r.readyMs),
      judged: ratios,
      target: { op: "<=", value: 2, unit: "×", text: "≤ 2× bare Bun.serve" },
      // The same start of od's libraries alone (Elysia, sqlite, zod, the probes), compiled like od: its ratio to the
      // same bare Bun.serve is what od's own code adds nothing to.
      floor: { what: "bench/fixtures/stack-floor.ts", judged: runs.stackFloor.map((run, i) => run.readyMs / runs.baseline[i]!.readyMs) },
    }),
    figureOf({
      id: "startup.idleRss",
      title: "idle RSS (1.5 s after engine ready)",
      unit: "MB",
      od: runs.od.map((r) => r.idleMb),
      baseline: runs.baseline.map((r) => r.idleMb),
      judged: runs.od.map((r) => r.idleMb),
      target: { op: "<=", value: 1, unit: "MB", text: "≤ the stack floor + 1 MB", overFloor: true },
      floor: { what: "bench/fixtures/stack-floor.ts", judged: runs.stackFloor.map((r) => r.idleMb) },
    }),
  ];
}

if (import.meta.main) reportFigures(await measureStartup());
