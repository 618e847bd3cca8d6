#!/usr/bin/env bun
/**
 * Start-up: exec → first /api/health answer, for dist/od versus a minimal compiled Bun.serve binary built in the
 * same run (the floor any Bun binary pays). Prints medians, the ratio (target ≤ 1.5×) and od's idle RSS (target ≤ 60 MB).
 * od answers health while its engine still loads (`ready: false`); the time until `ready: true` is printed too.
 *   bun run bench/startup.ts [--runs N]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileOd } from "../scripts/build-binary.ts";
import { buildWeb } from "../scripts/build-web.ts";
import { fmt, median, rssMb } from "./support.ts";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 15;
const work = mkdtempSync(join(tmpdir(), "od-bench-startup-"));

async function buildBaseline(): Promise<string> {
  const source = join(work, "baseline.ts");
  writeFileSync(
    source,
    `const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
     const server = Bun.serve({ port, hostname: "127.0.0.1", fetch: (r) => new URL(r.url).pathname === "/api/health" ? Response.json({ ok: true }) : new Response("nope", { status: 404 }) });
     console.log("listening on " + server.port);`,
  );
  const out = join(work, "baseline");
  const result = await Bun.build({ entrypoints: [source], compile: { outfile: out }, minify: true, bytecode: true, target: "bun" });
  if (!result.success) throw new Error("baseline build failed");
  return out;
}

async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = server.port!;
  await server.stop(true);
  return port;
}

/**
 * Spawn, poll /api/health every 2 ms; returns ms until the first 200 (the target's measure), ms until it reports
 * `ready` (od's engine loaded; the baseline has none, so its first answer counts), and the process.
 */
async function timeToHealth(argv: (port: number) => string[], env: Record<string, string>) {
  const port = await freePort();
  const started = performance.now();
  const proc = Bun.spawn(argv(port), { env: { ...process.env, ...env }, stdout: "ignore", stderr: "ignore" });
  let ms: number | undefined;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) {
        ms ??= performance.now() - started;
        if ((await res.json()).ready !== false) return { ms, readyMs: performance.now() - started, proc };
      }
    } catch {}
    if (performance.now() - started > 10_000) throw new Error("no ready health answer within 10 s");
    await Bun.sleep(2);
  }
}

async function measure(name: string, argv: (port: number) => string[], env: Record<string, string> = {}) {
  const times: number[] = [];
  const readyTimes: number[] = [];
  let idleRss: number | undefined;
  for (let i = 0; i < runs; i++) {
    const { ms, readyMs, proc } = await timeToHealth(argv, env);
    times.push(ms);
    readyTimes.push(readyMs);
    if (i === runs - 1) {
      await Bun.sleep(1000);
      idleRss = await rssMb(proc.pid);
    }
    proc.kill("SIGTERM");
    await proc.exited;
  }
  console.log(`${name.padEnd(10)} median ${fmt(median(times))} ms  (min ${fmt(Math.min(...times))}, max ${fmt(Math.max(...times))}); ready ${fmt(median(readyTimes))} ms`);
  return { median: median(times), readyMedian: median(readyTimes), idleRss };
}

try {
  await buildWeb();
  const od = await compileOd(join(work, "od"));
  const baseline = await buildBaseline();
  const dataDir = join(work, "data");
  const base = await measure("baseline", (port) => [baseline, "--port", String(port)]);
  const ours = await measure("od", (port) => [od, "--port", String(port), "--no-open", "--data-dir", dataDir]);
  const ratio = ours.median / base.median;
  console.log(`ratio od/baseline: ${fmt(ratio, 2)}× (target ≤ 1.5×) ${ratio <= 1.5 ? "OK" : "OVER"}`);
  console.log(`until od's engine is ready: ${fmt(ours.readyMedian / base.median, 2)}× the baseline (informational)`);
  console.log(`od idle RSS: ${ours.idleRss ? fmt(ours.idleRss) : "?"} MB (target ≤ 60 MB); baseline ${base.idleRss ? fmt(base.idleRss) : "?"} MB`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
