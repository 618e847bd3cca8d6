/**
 * Every pinned real CLI, driven THROUGH `od run --json` (a real process) against the fake model server: text,
 * write, native resume, SIGINT cancel and a 401, with the def od ships (ACP-only adapters as local profiles).
 * CLIs run concurrently (OD_REALCLI_CONCURRENCY, default 3); the scenarios of one CLI run in order.
 */
import { describe, test } from "bun:test";
import { assertOutcome } from "./known-failures.ts";
import { afterRealClisInstalled, runCliScenarios } from "./od-suite.ts";
import { SCENARIOS } from "./od-scenarios.ts";
import { REAL_CLI_IDS } from "./versions.ts";

const CONCURRENCY = Number(process.env.OD_REALCLI_CONCURRENCY) || 3;
const WAIT_MS = 10 * 60_000;

const outcomesOf = afterRealClisInstalled(REAL_CLI_IDS, CONCURRENCY, (cli) => runCliScenarios(cli));

for (const cli of REAL_CLI_IDS) {
  describe(`od run × real ${cli}`, () => {
    for (const scenario of SCENARIOS) {
      test(
        scenario,
        async () => {
          const all = await outcomesOf(cli);
          if (!all) throw new Error("scenarios did not run");
          assertOutcome(cli, scenario, all[scenario]);
        },
        WAIT_MS,
      );
    }
  });
}
