/**
 * Capability flags: which options the installed build of a CLI understands, read from its help output (and, for
 * flags missing from help, from how it rejects a bad value). Arg builders read the map so older builds never
 * receive an option they do not know.
 */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `caps[key]` = the flag appears in the help text as a whole option (`--dir` does not match `--directory`). */
export function parseCapabilities(helpText: string, flags: Record<string, string>): Record<string, boolean> {
  const caps: Record<string, boolean> = {};
  for (const [flag, key] of Object.entries(flags)) {
    const pattern = new RegExp(`(^|[^\\w-])${escapeRegExp(flag)}(?![\\w-])`, "m");
    caps[key] = (caps[key] ?? false) || pattern.test(helpText);
  }
  return caps;
}

/**
 * Capabilities from a help text cut off by a timeout: it proves which flags exist, not which are missing. The
 * others keep what the last complete detection found (`lastGood`), or stay unknown, so arg builders never drop a
 * flag on a busy machine.
 */
export function capabilitiesAfterTimeout(
  partial: Record<string, boolean>,
  lastGood: Record<string, boolean>,
  keys: readonly string[],
): Record<string, boolean> {
  const kept = Object.entries(lastGood).filter(([key]) => keys.includes(key));
  const present = Object.entries(partial).filter(([, on]) => on);
  return Object.fromEntries([...kept, ...present]);
}

const UNKNOWN_OPTION = /unknown (option|flag|argument)|unrecognized (option|argument|arguments)|unexpected argument|no such option|invalid option/i;

/** A hidden flag exists when the CLI complains about its value rather than about the flag itself. */
export function hiddenFlagSupported(output: string): boolean {
  return !UNKNOWN_OPTION.test(output);
}

/** Value passed to a hidden flag to make the CLI reject it without doing anything. */
export const HIDDEN_FLAG_PROBE_VALUE = "__od_capability_probe__";

/** Capability maps by agent id, refreshed by each detection pass. */
export class CapabilityMemory {
  #byAgent = new Map<string, Record<string, boolean>>();

  set(agentId: string, caps: Record<string, boolean>): void {
    this.#byAgent.set(agentId, caps);
  }

  get(agentId: string): Record<string, boolean> {
    return this.#byAgent.get(agentId) ?? {};
  }

  has(agentId: string): boolean {
    return this.#byAgent.has(agentId);
  }
}
