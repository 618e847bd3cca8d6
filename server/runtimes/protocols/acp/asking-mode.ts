/**
 * The session mode an ask or read-only run needs. Some ACP agents open their session in a mode that acts without
 * asking (codex-acp's `auto`: it writes in the workspace and asks only to leave it) and advertise one that asks
 * first (`read-only`: every write or command that changes something is a `session/request_permission`). An agent
 * already in a mode that asks (claude-code-acp's `default`) is left as it is. Pure.
 */
import { isRecord } from "../../streams/tool-kind.ts";

/** Modes that ask before the agent changes anything, in the order od prefers them. */
const ASKING_MODES = ["default", "read-only"];

/** The mode to switch the session to, or null when it already asks (or offers no mode that does). */
export function askingModeOf(sessionResult: unknown): string | null {
  const modes = isRecord(sessionResult) && isRecord(sessionResult.modes) ? sessionResult.modes : undefined;
  if (!modes) return null;
  const current = typeof modes.currentModeId === "string" ? modes.currentModeId : null;
  if (current !== null && ASKING_MODES.includes(current)) return null;
  const available = Array.isArray(modes.availableModes) ? modes.availableModes.flatMap((mode) => (isRecord(mode) && typeof mode.id === "string" ? [mode.id] : [])) : [];
  return ASKING_MODES.find((id) => available.includes(id)) ?? null;
}
