/**
 * Every pinned real CLI, driven THROUGH `od run --json` (a real process) against the fake model server: text,
 * write, native resume, SIGINT cancel and a 401, with the def od ships (ACP-only adapters as local profiles).
 * CLIs run concurrently (OD_REALCLI_CONCURRENCY, default 3); the scenarios of one CLI run in order.
 */
import { beforeAll, describe, test } from "bun:test";
import { assertOutcome } from "./known-failures.ts";
import { runCliScenarios, withConcurrency, type CliOutcomes } from "./od-suite.ts";
import { SCENARIOS } from "./od-scenarios.ts";
import { ensureRealClis } from "./setup.ts";
import { REAL_CLI_IDS, type RealCliId } from "./versions.ts";

const CONCURRENCY = Number(process.env.OD_REALCLI_CONCURRENCY) || 3;
const WAIT_MS = 10 * 60_000;

let outcomes: Map<RealCliId, Promise<CliOutcomes>> | undefined;
let installError: Error | undefined;

beforeAll(async () => {
  try {
    await ensureRealClis();
  } catch (error) {
    installError = error as Error;
    return;
  }
  outcomes = withConcurrency(REAL_CLI_IDS, CONCURRENCY, (cli) => runCliScenarios(cli));
  // Settle rejections here too, so an early failure is never an unhandled rejection.
  for (const outcome of outcomes.values()) outcome.catch(() => undefined);
}, 20 * 60_000);

for (const cli of REAL_CLI_IDS) {
  describe(`od run × real ${cli}`, () => {
    for (const scenario of SCENARIOS) {
      test(
        scenario,
        async () => {
          if (installError) throw installError;
          const all = await outcomes?.get(cli);
          if (!all) throw new Error("scenarios did not run");
          assertOutcome(cli, scenario, all[scenario]);
        },
        WAIT_MS,
      );
    }
  });
}
