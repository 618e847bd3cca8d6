/** The `usage` event of an ACP prompt result (camelCase and snake_case token fields normalised). */
import type { AgentEventOf, Usage } from "../../../contracts/events.ts";
import { isRecord } from "../../streams/tool-kind.ts";

const FIELDS: [keyof Usage, string[]][] = [
  ["input_tokens", ["inputTokens", "input_tokens"]],
  ["output_tokens", ["outputTokens", "output_tokens"]],
  ["thought_tokens", ["thoughtTokens", "thought_tokens", "reasoningTokens"]],
  ["cached_read_tokens", ["cachedReadTokens", "cached_read_tokens", "cacheReadTokens"]],
  ["cached_write_tokens", ["cachedWriteTokens", "cached_write_tokens", "cacheWriteTokens"]],
  ["total_tokens", ["totalTokens", "total_tokens"]],
];

/** Null when the result carries neither usage nor a stop reason. */
export function acpUsage(promptResult: unknown): AgentEventOf<"usage"> | null {
  if (!isRecord(promptResult)) return null;
  const event: AgentEventOf<"usage"> = { type: "usage" };
  if (typeof promptResult.stopReason === "string") event.stopReason = promptResult.stopReason;
  const raw = promptResult.usage;
  if (isRecord(raw)) {
    const usage: Usage = {};
    for (const [key, names] of FIELDS) {
      const value = names.map((name) => raw[name]).find((v) => typeof v === "number");
      if (typeof value === "number") usage[key] = value;
    }
    if (Object.keys(usage).length > 0) event.usage = usage;
  }
  return event.usage || event.stopReason ? event : null;
}
