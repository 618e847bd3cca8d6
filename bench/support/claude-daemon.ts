/**
 * What the API benchmarks start from: the built `od` daemon with a fake Claude Code on its PATH that writes `lines`
 * text lines per run, and one project folder saved in it. The fake's bin folder, environment and the project
 * folder come back too, so a benchmark can run the same CLI alone as its baseline.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeClaudeScript } from "./claude-script.ts";
import { startBenchDaemon, type BenchDaemon } from "./daemon.ts";
import { benchEnv, fakeBin, FAKE_CLI, odBinary } from "./od.ts";

export type ClaudeDaemon = { bench: BenchDaemon; projectId: string; bin: string; env: Record<string, string>; projectDir: string; [Symbol.asyncDispose](): Promise<void> };

export async function startClaudeDaemon(dir: string, lines: number): Promise<ClaudeDaemon> {
  const od = await odBinary();
  const bin = fakeBin(dir, { claude: FAKE_CLI });
  const script = writeClaudeScript(join(dir, "script.json"), lines);
  const env = benchEnv(bin, dir, { FAKE_CLI_SCRIPT: `@${script}` });
  const projectDir = join(dir, "project");
  mkdirSync(projectDir);
  const bench = await startBenchDaemon(od, join(dir, "data"), env);
  try {
    return { bench, projectId: await bench.project(projectDir), bin, env, projectDir, [Symbol.asyncDispose]: () => bench[Symbol.asyncDispose]() };
  } catch (error) {
    await bench[Symbol.asyncDispose]();
    throw error;
  }
}
