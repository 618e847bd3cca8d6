#!/usr/bin/env bun
/**
 * Memory under huge outputs (issue #17): peak RSS must not grow with the input or the run.
 *  1. `od parse --format plain --out-dir` over a 50 MB and a 200 MB transcript (target: ≤ +20 MB)
 *  2. `od run` of a copilot streaming 100k and 400k text lines (target: ≤ +50 MB; after a full GC its heap is ~10 MB
 *     at both sizes, the rest is collector slack)
 *  3. the daemon running a plain agent that prints a 50 MB and a 200 MB answer, then a late reader of the run's
 *     events and GET /api/conversations/:id/messages (targets: ≤ +50 MB; messages 200 and ≤ 12 MB)
 * Each runs od from source with a fake CLI; peaks are VmHWM (Linux /proc).
 *
 *   node_modules/.bin/bun run bench/memory.ts
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../server/platform/process.ts";
import { startDaemonProcess } from "../tests/support/daemon-process.ts";
import { writeShim } from "../tests/support/fake-agents.ts";
import { watchPeakRss } from "../tests/support/peak-rss.ts";
import { tempDir } from "../tests/support/temp.ts";

const fmt = (n: number, digits = 1) => n.toFixed(digits);

const root = join(import.meta.dir, "..");
const main = join(root, "server", "main.ts");
const MB = 1024 * 1024;
using work = tempDir("od-bench-memory-");

/** A file of about `megabytes` MB of prose with an artifact (a quarter of it) near the start. */
function writeTranscript(path: string, megabytes: number): void {
  const fd = openSync(path, "w");
  const line = "The agent explains what it is doing, at length, so the transcript is large.\n";
  const prose = line.repeat(Math.ceil(MB / line.length));
  try {
    for (let i = 0; i < megabytes; i++) {
      if (i === 1) {
        writeSync(fd, '<artifact identifier="big" type="text/html">\n');
        for (let n = 0; n < megabytes / 4; n++) writeSync(fd, `<p>${"x".repeat(MB - 8)}</p>\n`);
        writeSync(fd, "</artifact>\n");
      }
      writeSync(fd, prose);
    }
  } finally {
    closeSync(fd);
  }
}

/** Runs od with `args` to completion (stdout drained and counted); returns its peak RSS in MB. */
async function peakOf(args: string[], env: Record<string, string> = {}, cwd = work.path): Promise<number> {
  const child = await spawnChild({ argv: [process.execPath, main, ...args], cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, ...env } });
  const peak = watchPeakRss(child.pid);
  const stderr = (async () => {
    for await (const _ of child.stderr);
  })();
  for await (const _ of child.stdout);
  peak.sample();
  await stderr;
  const exit = await child.exited;
  const kb = peak.stop();
  if (exit.code !== 0) throw new Error(`od ${args[0]} exited ${exit.code}`);
  return kb / 1024;
}

function report(name: string, small: string, large: string, smallMb: number, largeMb: number, targetMb: number): boolean {
  const growth = largeMb - smallMb;
  const ok = growth <= targetMb;
  console.log(`${name} ${small}: ${fmt(smallMb)} MB, ${large}: ${fmt(largeMb)} MB (+${fmt(growth)}; target ≤ +${targetMb} MB) ${ok ? "OK" : "OVER"}`);
  return ok;
}

const bin = join(work.path, "bin");
const project = join(work.path, "project");
mkdirSync(bin);
mkdirSync(project);
writeShim(bin, "copilot");
writeShim(bin, "deepseek");
const fakeEnv = (steps: unknown[], name: string) => {
  const script = join(work.path, `${name}.json`);
  writeFileSync(script, JSON.stringify(steps));
  return { PATH: `${bin}:/usr/bin:/bin`, FAKE_CLI_SCRIPT: `@${script}` };
};
let allOk = true;

// 1. od parse
const parsePeaks: number[] = [];
for (const size of [50, 200]) {
  const file = join(work.path, `transcript-${size}.txt`);
  writeTranscript(file, size);
  parsePeaks.push(await peakOf(["parse", "--format", "plain", "--out-dir", join(work.path, `out-${size}`), file]));
}
allOk = report("od parse ", "50 MB", "200 MB", parsePeaks[0]!, parsePeaks[1]!, 20) && allOk;

// 2. od run
const delta = JSON.stringify({ type: "assistant.message_delta", data: { messageId: "m", deltaContent: "line {{i}}: the agent keeps talking about what it does.\n" } });
const runPeaks: number[] = [];
for (const lines of [100_000, 400_000]) {
  const env = fakeEnv([{ readAll: true }, { repeat: lines, out: delta }, { exit: 0 }], `run-${lines}`);
  runPeaks.push(await peakOf(["run", "--agent", "copilot", "--project", project, "--data-dir", join(work.path, `data-run-${lines}`), "go"], env));
}
allOk = report("od run   ", "100k lines", "400k lines", runPeaks[0]!, runPeaks[1]!, 50) && allOk;

// 3. the daemon
/** One daemon, one plain run printing an answer of `answerMb`, a late reader of its events, then its messages. */
async function daemonRun(answerMb: number) {
  const answer = join(work.path, `answer-${answerMb}.txt`);
  writeTranscript(answer, answerMb);
  await using daemon = await startDaemonProcess([process.execPath, main, "serve", "--port", "0", "--no-open", "--data-dir", join(work.path, `data-daemon-${answerMb}`)], {
    env: { ...fakeEnv([{ readAll: true }, { outFile: answer }], `daemon-${answerMb}`), HOME: work.path },
  });
  const api = (path: string, body?: unknown) =>
    fetch(`${daemon.origin}${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
  const { project: created } = await (await api("/api/projects", { name: "bench", path: project })).json();
  await api("/api/agents");
  const peak = watchPeakRss(daemon.child.pid);
  const { runId, conversationId } = await (await api("/api/runs", { projectId: created.id, agentId: "deepseek", message: "go" })).json();
  // Read the run's events only once it has ended: a late reader replays it all from sqlite.
  for (;;) {
    const run = await (await api(`/api/runs/${runId}`)).json();
    if (run.status !== "queued" && run.status !== "running") break;
    await Bun.sleep(200);
  }
  let eventBytes = 0;
  for await (const chunk of (await api(`/api/runs/${runId}/events`)).body!) eventBytes += chunk.length;
  const started = performance.now();
  const messages = await api(`/api/conversations/${conversationId}/messages`);
  const messageBytes = (await messages.arrayBuffer()).byteLength;
  const ms = performance.now() - started;
  peak.sample();
  return { peakMb: peak.stop() / 1024, eventBytes, status: messages.status, messageBytes, ms };
}

const daemonRuns = [await daemonRun(50), await daemonRun(200)];
allOk = report("daemon   ", "50 MB answer", "200 MB answer", daemonRuns[0]!.peakMb, daemonRuns[1]!.peakMb, 50) && allOk;
for (const run of daemonRuns) {
  const ok = run.status === 200 && run.messageBytes <= 12 * MB;
  allOk = ok && allOk;
  console.log(`          late reader ${fmt(run.eventBytes / MB)} MB of events; messages ${run.status}, ${fmt(run.messageBytes / MB)} MB in ${fmt(run.ms)} ms (target 200, ≤ 12 MB) ${ok ? "OK" : "OVER"}`);
}
process.exitCode = allOk ? 0 : 1;
