/**
 * `od agents --json` as a real process against one real CLI's sandbox (its HOME, recipe env, `<ID>_BIN` or local
 * profile): what detection reports for the pinned install, parsed with the AgentInfo schema. It waits for every
 * probe (no detection deadline): these tests check what the CLI reports, not how long a loaded machine takes.
 */
import { join } from "node:path";
import { AgentInfo } from "../../server/contracts/agents.ts";
import { runCliBounded } from "./run-cli.ts";
import { createOdSandbox } from "./od-sandbox.ts";
import type { RealCliId } from "./versions.ts";

const MAIN = join(import.meta.dir, "..", "..", "server", "main.ts");

export type DetectionResult = { agent: AgentInfo | undefined; stdout: string; stderr: string; exitCode: number | null; seconds: number };

/** Detect one pinned CLI the way `od agents --json` does on a machine where it is installed. */
export async function detectRealCli(cli: RealCliId): Promise<DetectionResult> {
  const sandbox = await createOdSandbox(cli);
  try {
    const run = await runCliBounded({ argv: [process.execPath, MAIN, "agents", "--json"], env: { ...sandbox.env, OD_DETECTION_DEADLINE_MS: "0" }, cwd: sandbox.project, timeoutMs: 120_000 });
    let agent: AgentInfo | undefined;
    try {
      const parsed = AgentInfo.array().safeParse(JSON.parse(run.stdout));
      if (parsed.success) agent = parsed.data.find((entry) => entry.id === sandbox.agentId);
    } catch {
      // Left undefined; the test prints stdout and stderr.
    }
    return { agent, stdout: run.stdout, stderr: run.stderr, exitCode: run.exit.code, seconds: run.seconds };
  } finally {
    await sandbox.dispose();
  }
}
