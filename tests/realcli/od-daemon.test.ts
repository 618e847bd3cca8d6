/**
 * The five scenarios for claude, codex and pi through a real `od serve` process: POST /api/runs, the run's SSE
 * stream, POST /api/runs/:id/cancel, with the same real CLIs and fake model server as od-run.test.ts.
 */
import { beforeAll, describe, test } from "bun:test";
import { assertOutcome } from "./known-failures.ts";
import { runCliScenariosOverHttp, withConcurrency, type CliOutcomes } from "./od-suite.ts";
import { SCENARIOS } from "./od-scenarios.ts";
import { ensureRealClis } from "./setup.ts";
import type { RealCliId } from "./versions.ts";

const OVER_HTTP: RealCliId[] = ["claude", "codex", "pi"];
let outcomes: Map<RealCliId, Promise<CliOutcomes>> | undefined;
let installError: Error | undefined;

beforeAll(async () => {
  try {
    await ensureRealClis();
  } catch (error) {
    installError = error as Error;
    return;
  }
  outcomes = withConcurrency(OVER_HTTP, 3, (cli) => runCliScenariosOverHttp(cli));
  for (const outcome of outcomes.values()) outcome.catch(() => undefined);
}, 20 * 60_000);

for (const cli of OVER_HTTP) {
  describe(`od daemon HTTP+SSE × real ${cli}`, () => {
    for (const scenario of SCENARIOS) {
      test(
        scenario,
        async () => {
          if (installError) throw installError;
          const all = await outcomes?.get(cli);
          if (!all) throw new Error("scenarios did not run");
          assertOutcome(`${cli} (http)`, scenario, all[scenario]);
        },
        10 * 60_000,
      );
    }
  });
}
