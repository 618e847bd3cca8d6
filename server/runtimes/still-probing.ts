/** What a pass reports for a def whose probes outlast its deadline: the last-good result if there is one. Pure. */
import type { AgentInfo } from "../contracts/agents.ts";
import type { LastGoodDetection } from "../contracts/agent-detection.ts";
import { baseAgentInfo } from "./detection.ts";
import { stillProbingDiagnostic } from "./diagnostics.ts";
import type { EnvMap, RuntimeAgentDef } from "./types.ts";

/**
 * The def's last complete result with a note that it is being probed again; without one, state `probing` (not
 * `unavailable`: nothing says the CLI is missing, it has just not answered yet).
 */
export function stillProbingInfo(def: RuntimeAgentDef, env: EnvMap, waitedMs: number, lastGood?: LastGoodDetection): AgentInfo {
  const note = stillProbingDiagnostic(def, waitedMs, lastGood?.at);
  if (lastGood) return { ...lastGood.info, diagnostics: [note, ...lastGood.info.diagnostics] };
  return { ...baseAgentInfo(def, env), state: "probing", diagnostics: [note] };
}
