#!/usr/bin/env bun
/**
 * The end of an ACP run: `od run --json` (dist/od, a process) on a short answer from a fake ACP agent
 * (tests/fakes/acp-agent.ts behind the shipped kiro def) that stays up after its turn with its stdin closed, as the
 * ACP adapters (claude-code-acp, codex-acp) do, against the same run of the same agent when it exits on EOF,
 * alternately, after one untimed run of each. Judged round by round: what the lingering agent adds to the run, which
 * is how long od waits before it stops a client whose session has finished. Target ≤ 1.5 s (od gives such a client at
 * most 1 s, then SIGTERM; it used to wait out its cancel grace and the session's steps of the stop ladder, ~4.5 s).
 *   bun run bench/acp-run.ts            (OD_BENCH_REPS=N for N rounds, default 5)
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { figureOf, type Figure } from "./support/figures.ts";
import { benchEnv, odBinary, workDir } from "./support/od.ts";
import { benchReps, interleaved, measureProcess } from "./support/process.ts";
import { loadText, note, reportFigures } from "./support/report.ts";

const FAKE_ACP_AGENT = join(import.meta.dir, "..", "tests", "fakes", "acp-agent.ts");

/** A one-turn answer: a line of text, then the end of the turn. */
const SCRIPT = {
  initialize: { result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: "bench", version: "1.0.0" } } },
  sessionNew: { result: { sessionId: "bench-session" } },
  prompt: [{ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "done" } } }, { result: { stopReason: "end_turn" } }],
};

/** `kiro-cli`: answers the version probe itself, else runs the fake ACP agent (its script from FAKE_ACP_SCRIPT). */
function writeKiroFake(bin: string): void {
  mkdirSync(bin, { recursive: true });
  const path = join(bin, "kiro-cli");
  writeFileSync(path, `#!/bin/sh\ncase "$1" in\n  --version) echo "kiro-cli 1.0.0"; exit 0 ;;\nesac\nexec '${process.execPath}' '${FAKE_ACP_AGENT}' "$@"\n`);
  chmodSync(path, 0o755);
}

export async function measureAcpRun(): Promise<Figure[]> {
  using dir = workDir("acp-run");
  const od = await odBinary();
  const bin = join(dir.path, "bin");
  writeKiroFake(bin);
  const project = join(dir.path, "project");
  mkdirSync(project, { recursive: true });
  const run = (stayUpAfterEof: boolean) => () =>
    measureProcess([od, "run", "--agent", "kiro", "--project", project, "--data-dir", join(dir.path, "data"), "--json", "hi"], {
      env: benchEnv(bin, dir.path, { FAKE_ACP_SCRIPT: JSON.stringify({ ...SCRIPT, stayUpAfterEof }) }),
      cwd: project,
    });
  note(`acp-run: ${loadText()}`);
  const runs = await interleaved(benchReps(), { od: run(true), baseline: run(false) });
  return [
    figureOf({
      id: "acpRun.lingeringAgent",
      title: "od run, ACP agent still up after its turn (baseline: one that exits on EOF)",
      unit: "ms",
      od: runs.od.map((r) => r.ms),
      baseline: runs.baseline.map((r) => r.ms),
      judged: runs.od.map((r, i) => r.ms - runs.baseline[i]!.ms),
      target: { op: "<=", value: 1500, unit: "ms", text: "≤ the exiting agent + 1.5 s" },
    }),
  ];
}

if (import.meta.main) reportFigures(await measureAcpRun());
