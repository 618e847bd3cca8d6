/**
 * The only list of runtimes: the shipped defs in catalog order (`BASE_AGENT_IDS`, `baseAgentDefs()`, which tests
 * iterate), plus the user's local profiles of a data dir (`loadAgentDefs`, read where the data dir is known: by the
 * services, and by `od agents`). Each def is built the first time it is asked for (`lazyAgentDef`): `od run` builds
 * its agent's alone. Adding a CLI: its def file under defs/ and one line below.
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

/** Shipped defs, in the reference daemon's order: each id (its def's own, tests/runtimes/registry.test.ts checks) and its def. */
const SHIPPED: readonly (readonly [id: string, def: () => RuntimeAgentDef])[] = [
  ["amr", amrAgentDef],
  ["claude", claudeAgentDef],
  ["codex", codexAgentDef],
  ["devin", devinAgentDef],
  ["opencode", opencodeAgentDef],
  ["byok-opencode", byokOpencodeAgentDef],
  ["hermes", hermesAgentDef],
  ["trae-cli", traeCliAgentDef],
  ["grok-build", grokBuildAgentDef],
  ["kimi", kimiAgentDef],
  ["cursor-agent", cursorAgentDef],
  ["qwen", qwenAgentDef],
  ["qoder", qoderAgentDef],
  ["copilot", copilotAgentDef],
  ["amp", ampAgentDef],
  ["pi", piAgentDef],
  ["kiro", kiroAgentDef],
  ["kilo", kiloAgentDef],
  ["vibe", vibeAgentDef],
  ["deepseek", deepseekAgentDef],
  ["deepseek-harness", deepseekHarnessAgentDef],
  ["aider", aiderAgentDef],
  ["antigravity", antigravityAgentDef],
  ["reasonix", reasonixAgentDef],
  ["prime-agent", primeAgentDef],
  ["codebuddy", codebuddyAgentDef],
  ["mimo", mimoAgentDef],
  ["atomcode", atomcodeAgentDef],
];

/** The shipped ids, in catalog order, without building a def. */
export const BASE_AGENT_IDS: readonly string[] = SHIPPED.map(([id]) => id);

/** The shipped def with this id (built now if it was not yet), or undefined when none has it. */
export function baseAgentDef(id: string): RuntimeAgentDef | undefined {
  return SHIPPED.find(([shippedId]) => shippedId === id)?.[1]();
}

/** Every shipped def, in catalog order. */
export function baseAgentDefs(): readonly RuntimeAgentDef[] {
  return SHIPPED.map(([, def]) => def());
}

/** Throws `Duplicate agent definition id: <id>` on the first repeated id. */
export function assertUniqueAgentIds(defs: readonly RuntimeAgentDef[]): void {
  const ids = new Set<string>();
  for (const def of defs) {
    if (ids.has(def.id)) throw new Error(`Duplicate agent definition id: ${def.id}`);
    ids.add(def.id);
  }
}

/**
 * Shipped defs plus the local profiles of this environment, checked for unique ids; with `onlyIds`, those of them
 * only (the other shipped defs stay unbuilt unless there is a profile file to parse).
 */
export function loadAgentDefs(env: EnvMap = process.env, onlyIds?: readonly string[]): { defs: RuntimeAgentDef[]; diagnostics: AgentDiagnostic[] } {
  const profiles = readLocalAgentProfileDefs(baseAgentDefs, env);
  const shipped = onlyIds ? onlyIds.flatMap((id) => baseAgentDef(id) ?? []) : baseAgentDefs();
  const defs = [...shipped, ...(onlyIds ? profiles.defs.filter((def) => onlyIds.includes(def.id)) : profiles.defs)];
  assertUniqueAgentIds(defs);
  return { defs, diagnostics: profiles.diagnostics };
}

/** Lookup by id. */
export function getAgentDef(id: string, defs?: readonly RuntimeAgentDef[]): RuntimeAgentDef | undefined {
  return defs ? defs.find((def) => def.id === id) : baseAgentDef(id);
}
