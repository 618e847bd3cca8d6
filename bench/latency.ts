#!/usr/bin/env bun
/**
 * Streaming latency and memory of the run pipeline, against baselines measured in the same run:
 *  1. CLI write → SSE client receipt, p50/p99, with a fake CLI writing timestamped events at 5k/s (target p99 ≤ 10 ms)
 *  2. daemon RSS with 10 concurrent streaming runs, versus the same daemon idle (target ≤ +40 MB)
 *  3. wall time of a scripted run through `od run` versus the same fake CLI run directly (target ≤ 1.05×)
 *   bun run bench/latency.ts
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileOd } from "../scripts/build-binary.ts";
import { buildWeb } from "../scripts/build-web.ts";
import { startDaemonProcess } from "../tests/support/daemon-process.ts";
import { fmt, median, percentile, rssMb } from "./support.ts";

const work = mkdtempSync(join(tmpdir(), "od-bench-latency-"));
const fake = join(import.meta.dir, "fixtures", "paced-cli.ts");
const binDir = join(work, "bin");
mkdirSync(binDir);
writeFileSync(join(binDir, "opencode"), `#!/bin/sh\nexec "${process.execPath}" "${fake}" "$@"\n`);
chmodSync(join(binDir, "opencode"), 0o755);
const project = join(work, "project");
mkdirSync(project);
const env = { PATH: `${binDir}:/usr/bin:/bin`, HOME: work };

async function sse(url: string, token: string, onData: (data: string) => void): Promise<void> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const data = block.split("\n").find((l) => l.startsWith("data: "));
      if (data) onData(data.slice(6));
    }
  }
}

try {
  await buildWeb();
  const od = await compileOd(join(work, "od"));
  await using daemon = await startDaemonProcess([od, "--port", "0", "--no-open", "--data-dir", join(work, "data")], { env: { ...env, PACED_RATE: "5000", PACED_SECONDS: "3" } });
  const api = (path: string, body?: unknown) =>
    fetch(`${daemon.origin}${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    }).then((r) => r.json());
  const { project: created } = await api("/api/projects", { name: "bench", path: project });
  await api("/api/agents"); // warm detection
  await Bun.sleep(500);
  const idleRss = (await rssMb(daemon.child.pid))!;

  // 1. latency of one run at 5k events/s
  const latencies: number[] = [];
  const { runId } = await api("/api/runs", { projectId: created.id, agentId: "opencode", message: "go" });
  await sse(`${daemon.origin}/api/runs/${runId}/events`, daemon.token, (data) => {
    const event = JSON.parse(data);
    if (event.type === "agent" && event.event.type === "text_delta") {
      latencies.push(performance.timeOrigin + performance.now() - Number.parseFloat(event.event.delta));
    }
  });
  console.log(`latency   ${latencies.length} events at 5k/s: p50 ${fmt(percentile(latencies, 50), 2)} ms, p99 ${fmt(percentile(latencies, 99), 2)} ms (target p99 ≤ 10 ms) ${percentile(latencies, 99) <= 10 ? "OK" : "OVER"}`);

  // 2. memory with 10 concurrent streaming runs
  const samples: number[] = [];
  const sampler = setInterval(async () => {
    const rss = await rssMb(daemon.child.pid);
    if (rss !== undefined) samples.push(rss);
  }, 50);
  const runs = await Promise.all(Array.from({ length: 10 }, async () => {
    const { project: p } = await api("/api/projects", { name: "bench", path: mkdtempSync(join(work, "p-")) });
    return { runId: (await api("/api/runs", { projectId: p.id, agentId: "opencode", message: "go" })).runId as string };
  }));
  await Promise.all(runs.map(({ runId: id }) => sse(`${daemon.origin}/api/runs/${id}/events`, daemon.token, () => {})));
  clearInterval(sampler);
  // Judged on the median while streaming; the peak is the GC's high-water mark and printed alongside.
  const during = median(samples);
  const peak = Math.max(...samples);
  console.log(
    `memory    idle ${fmt(idleRss)} MB; with 10 streaming runs median ${fmt(during)} MB (+${fmt(during - idleRss)}), peak ${fmt(peak)} MB (+${fmt(peak - idleRss)}) (target ≤ +40 MB) ${during - idleRss <= 40 ? "OK" : "OVER"}`,
  );

  // 3. od run vs the fake CLI directly, same script (2k events/s for 4 s)
  const scripted = { ...env, PACED_RATE: "2000", PACED_SECONDS: "4" };
  const direct: number[] = [];
  const viaOd: number[] = [];
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    const p = Bun.spawn([join(binDir, "opencode"), "run", "--format", "json"], { env: scripted, stdin: new TextEncoder().encode("go"), stdout: "ignore" });
    await p.exited;
    direct.push(performance.now() - t);
    t = performance.now();
    const q = Bun.spawn([od, "run", "--agent", "opencode", "--project", project, "--data-dir", join(work, "data-run"), "--json", "go"], { env: scripted, stdout: "ignore", stderr: "ignore" });
    const code = await q.exited;
    if (code !== 0) throw new Error(`od run exited ${code}`);
    viaOd.push(performance.now() - t);
  }
  const ratio = median(viaOd) / median(direct);
  console.log(`od run    median ${fmt(median(viaOd))} ms vs direct ${fmt(median(direct))} ms: ${fmt(ratio, 3)}× (target ≤ 1.05×) ${ratio <= 1.05 ? "OK" : "OVER"}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
