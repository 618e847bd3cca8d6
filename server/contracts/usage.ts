/** `GET /api/usage`: what each finished run cost, from what od stored when it ended. Read-only. */
import { z } from "./zod.ts";
import { RunStatus } from "./runs.ts";

/** One run's figures. Tokens and cost are null when the CLI never reported them (od never estimates). */
export const UsageRun = z.object({
  runId: z.string(),
  projectId: z.string(),
  conversationId: z.string(),
  agentId: z.string(),
  /** The model the CLI reported it used, else the one the run asked for, else null (the CLI's default). */
  model: z.string().nullable(),
  status: RunStatus,
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** Wall-clock length od measured, start → end. */
  durationMs: z.number().nullable(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  /** US dollars, only when the CLI reported a cost. */
  costUsd: z.number().nullable(),
});
export type UsageRun = z.infer<typeof UsageRun>;

export const UsageResponse = z.object({ runs: z.array(UsageRun) });
export type UsageResponse = z.infer<typeof UsageResponse>;

/** `?since=` (ms since the epoch, runs started at or after it) and `?limit=` (newest first, at most 5000). */
export const UsageQuery = z.object({
  since: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().min(1).max(5000).optional(),
});
export type UsageQuery = z.infer<typeof UsageQuery>;
