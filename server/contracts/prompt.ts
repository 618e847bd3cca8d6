/**
 * The prompt text rule, on its own: `od run` checks its prompt with it without building every run and event schema
 * (contracts/runs.ts), which cost it ~8 ms at each start.
 */
import { z } from "./zod.ts";

/** What a person asks the agent: at least one non-blank character (a blank prompt starts an agent with nothing to do). */
export const PromptText = z.string().refine((text) => text.trim() !== "", "message must not be empty or only whitespace");
