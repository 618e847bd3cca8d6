/**
 * The only list of runtimes: the shipped defs in catalog order (`BASE_AGENT_DEFS`, which tests iterate), plus the
 * user's local profiles of a data dir (`loadAgentDefs`, read where the data dir is known: by the services, and by
 * `od agents`).
 */
import type { AgentDiagnostic } from "../contracts/agents.ts";
import type { EnvMap, RuntimeAgentDef } from "./types.ts";
import { readLocalAgentProfileDefs } from "./local-profiles.ts";
import { aiderAgentDef } from "./defs/aider.ts";
import { ampAgentDef } from "./defs/amp.ts";
import { amrAgentDef } from "./defs/amr.ts";
import { antigravityAgentDef } from "./defs/antigravity.ts";
import { atomcodeAgentDef } from "./defs/atomcode.ts";
import { byokOpencodeAgentDef } from "./defs/byok-opencode.ts";
import { claudeAgentDef } from "./defs/claude.ts";
import { codebuddyAgentDef } from "./defs/codebuddy.ts";
import { codexAgentDef } from "./defs/codex.ts";
import { copilotAgentDef } from "./defs/copilot.ts";
import { cursorAgentDef } from "./defs/cursor-agent.ts";
import { deepseekAgentDef } from "./defs/deepseek.ts";
import { deepseekHarnessAgentDef } from "./defs/deepseek-harness.ts";
import { devinAgentDef } from "./defs/devin.ts";
import { grokBuildAgentDef } from "./defs/grok-build.ts";
import { hermesAgentDef } from "./defs/hermes.ts";
import { kiloAgentDef } from "./defs/kilo.ts";
import { kimiAgentDef } from "./defs/kimi.ts";
import { kiroAgentDef } from "./defs/kiro.ts";
import { mimoAgentDef } from "./defs/mimo.ts";
import { opencodeAgentDef } from "./defs/opencode.ts";
import { piAgentDef } from "./defs/pi.ts";
import { primeAgentDef } from "./defs/prime-agent.ts";
import { qoderAgentDef } from "./defs/qoder.ts";
import { qwenAgentDef } from "./defs/qwen.ts";
import { reasonixAgentDef } from "./defs/reasonix.ts";
import { traeCliAgentDef } from "./defs/trae-cli.ts";
import { vibeAgentDef } from "./defs/vibe.ts";

/** Shipped defs, in the reference daemon's order. */
export const BASE_AGENT_DEFS: readonly RuntimeAgentDef[] = [
  amrAgentDef,
  claudeAgentDef,
  codexAgentDef,
  devinAgentDef,
  opencodeAgentDef,
  byokOpencodeAgentDef,
  hermesAgentDef,
  traeCliAgentDef,
  grokBuildAgentDef,
  kimiAgentDef,
  cursorAgentDef,
  qwenAgentDef,
  qoderAgentDef,
  copilotAgentDef,
  ampAgentDef,
  piAgentDef,
  kiroAgentDef,
  kiloAgentDef,
  vibeAgentDef,
  deepseekAgentDef,
  deepseekHarnessAgentDef,
  aiderAgentDef,
  antigravityAgentDef,
  reasonixAgentDef,
  primeAgentDef,
  codebuddyAgentDef,
  mimoAgentDef,
  atomcodeAgentDef,
];

/** Throws `Duplicate agent definition id: <id>` on the first repeated id. */
export function assertUniqueAgentIds(defs: readonly RuntimeAgentDef[]): void {
  const ids = new Set<string>();
  for (const def of defs) {
    if (ids.has(def.id)) throw new Error(`Duplicate agent definition id: ${def.id}`);
    ids.add(def.id);
  }
}

/** Shipped defs plus the local profiles of this environment, checked for unique ids. */
export function loadAgentDefs(env: EnvMap = process.env): { defs: RuntimeAgentDef[]; diagnostics: AgentDiagnostic[] } {
  const profiles = readLocalAgentProfileDefs(BASE_AGENT_DEFS, env);
  const defs = [...BASE_AGENT_DEFS, ...profiles.defs];
  assertUniqueAgentIds(defs);
  return { defs, diagnostics: profiles.diagnostics };
}

/** Lookup by id. */
export function getAgentDef(id: string, defs: readonly RuntimeAgentDef[] = BASE_AGENT_DEFS): RuntimeAgentDef | undefined {
  return defs.find((def) => def.id === id);
}
