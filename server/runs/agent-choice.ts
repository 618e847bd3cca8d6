/** Which agent a run goes to, and whether the model and reasoning asked for are ones it has. */
import { OdError } from "../errors.ts";
import type { RuntimeAgentDef, RuntimeModelOption } from "../runtimes/types.ts";
import type { DetectedAgents } from "./detected-agents.ts";

/** The agent asked for, which must be available where the run goes; else the configured one, else the first. */
export function chooseAgent(defs: readonly RuntimeAgentDef[], configured: string | null | undefined, agentId: string | undefined, detected: DetectedAgents): RuntimeAgentDef {
  const infos = detected.agents;
  const on = detected.where ? ` on ${detected.where}` : "";
  const available = (id: string) => infos.find((info) => info.id === id)?.state === "available";
  if (agentId) {
    const def = defs.find((d) => d.id === agentId);
    if (!def) throw new OdError("invalid", "UNKNOWN_AGENT", `unknown agent '${agentId}' (known: ${defs.map((d) => d.id).join(", ")})`);
    if (!available(agentId)) {
      // The first diagnostic says why and, for a missing CLI, how to install it or point <ID>_BIN (or PATH) at it.
      const diagnostic = infos.find((i) => i.id === agentId)?.diagnostics[0];
      const why = diagnostic ? [diagnostic.message, diagnostic.detail].filter(Boolean).join(" ").replace(/\s*\n\s*/g, " ") : "it is not installed";
      throw new OdError("invalid", "AGENT_UNAVAILABLE", `${def.name} is not available${on}: ${why}`);
    }
    return def;
  }
  const chosen = (configured && available(configured) ? configured : undefined) ?? infos.find((i) => i.state === "available")?.id;
  const def = chosen ? defs.find((d) => d.id === chosen) : undefined;
  if (!def) throw new OdError("invalid", "NO_AGENT_AVAILABLE", detected.where ? `no agent CLI is available${on}; install one there` : "no agent CLI is available; install one and rescan");
  return def;
}

/** A model id and reasoning level the agent has (its live models when known, else its fallback list). */
export function validateModel(def: RuntimeAgentDef, model: string | null, reasoning: string | null, liveModels: RuntimeModelOption[] | undefined): void {
  const explicit = model && model !== "default" ? model : null;
  const known = liveModels ?? def.fallbackModels;
  if (explicit) {
    if (/\s/.test(explicit) || explicit.length > 200) throw new OdError("invalid", "INVALID_MODEL", `'${explicit}' is not a valid model id`);
    if (def.supportsCustomModel === false && !known.some((m) => m.id === explicit)) {
      throw new OdError("invalid", "UNKNOWN_MODEL", `${def.name} has no model '${explicit}' (choose one of: ${known.map((m) => m.id).join(", ")})`);
    }
  }
  if (reasoning && reasoning !== "default") {
    const modelChoices = explicit ? known.find((m) => m.id === explicit)?.reasoningOptions : undefined;
    const choices = modelChoices ?? def.reasoningOptions;
    if (!choices?.some((c) => c.id === reasoning)) {
      throw new OdError("invalid", "UNKNOWN_REASONING", `${def.name} has no reasoning option '${reasoning}'`);
    }
  }
}
