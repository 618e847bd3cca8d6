/**
 * The five scenarios for claude, codex and pi through a real `od serve` process: POST /api/runs, the run's SSE
 * stream, POST /api/runs/:id/cancel, with the same real CLIs and fake model server as od-run.test.ts.
 */
import { describe, test } from "bun:test";
import { assertOutcome } from "./known-failures.ts";
import { afterRealClisInstalled, runCliScenariosOverHttp } from "./od-suite.ts";
import { SCENARIOS } from "./od-scenarios.ts";
import type { RealCliId } from "./versions.ts";

const OVER_HTTP: RealCliId[] = ["claude", "codex", "pi"];
const outcomesOf = afterRealClisInstalled(OVER_HTTP, 3, (cli) => runCliScenariosOverHttp(cli));

for (const cli of OVER_HTTP) {
  describe(`od daemon HTTP+SSE × real ${cli}`, () => {
    for (const scenario of SCENARIOS) {
      test(
        scenario,
        async () => {
          const all = await outcomesOf(cli);
          if (!all) throw new Error("scenarios did not run");
          assertOutcome(`${cli} (http)`, scenario, all[scenario]);
        },
        10 * 60_000,
      );
    }
  });
}
