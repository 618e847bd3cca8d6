/**
 * The prompt text schema, on its own: the run request schemas (contracts/runs.ts) use it without `od run` building
 * them; `od run` itself checks with the plain rule (contracts/prompt-text.ts).
 */
import { isPromptText, PROMPT_TEXT_RULE } from "./prompt-text.ts";
import { z } from "./zod.ts";

/** What a person asks the agent: at least one non-blank character (a blank prompt starts an agent with nothing to do). */
export const PromptText = z.string().refine(isPromptText, PROMPT_TEXT_RULE);
