/**
 * Known real-CLI failures: a scenario that fails for an upstream reason still RUNS, and its test asserts it still
 * fails the same way (a problem matching `signature`), so an upstream fix shows up as a failing test that says
 * "remove the known failure". Every entry names the CLI, the scenario and the upstream reason.
 */
import type { ScenarioOutcome } from "./od-suite.ts";

/** One expected failure. */
export type KnownFailure = { cli: string; scenario: string; signature: RegExp; reason: string };

const KNOWN: KnownFailure[] = [];

/** Declare a known failure (call at module level of a test file). */
export function knownFailure(cli: string, scenario: string, signature: RegExp, reason: string): void {
  KNOWN.push({ cli, scenario, signature, reason });
}

/** The known failure registered for this CLI and scenario, if any. */
export function knownFailureFor(cli: string, scenario: string): KnownFailure | undefined {
  return KNOWN.find((entry) => entry.cli === cli && entry.scenario === scenario);
}

/**
 * Throws unless the outcome matches expectations: no problems, or, for a known failure, a problem matching its
 * signature. The message carries the problems and the run trace.
 */
export function assertOutcome(cli: string, scenario: string, outcome: ScenarioOutcome): void {
  const known = knownFailureFor(cli, scenario);
  if (!known) {
    if (outcome.problems.length) throw new Error(`${cli} ${scenario}:\n- ${outcome.problems.join("\n- ")}\n${outcome.details}`);
    return;
  }
  if (!outcome.problems.length) {
    throw new Error(`${cli} ${scenario} now PASSES: remove the known failure (${known.reason})`);
  }
  if (!outcome.problems.some((problem) => known.signature.test(problem))) {
    throw new Error(`${cli} ${scenario} fails differently than the known failure ${known.signature} (${known.reason}):\n- ${outcome.problems.join("\n- ")}\n${outcome.details}`);
  }
}
