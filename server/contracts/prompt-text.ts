/**
 * The prompt text rule as a plain check: `od run` checks its prompt with it before anything loads zod
 * (server/platform/load-on-first-use.ts); contracts/prompt.ts builds the schema from the same rule.
 */

/** What a person asks the agent: at least one non-blank character (a blank prompt starts an agent with nothing to do). */
export function isPromptText(text: string): boolean {
  return text.trim() !== "";
}

export const PROMPT_TEXT_RULE = "message must not be empty or only whitespace";
