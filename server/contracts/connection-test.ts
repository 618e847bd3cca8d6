/** `POST /api/test/connection`: "does this agent work?" (server/runs/connection-test.ts runs it). */
import { z } from "./zod.ts";

/** `POST /api/test/connection`. `mode` is accepted for compatibility (only `agent` exists). */
export const ConnectionTestRequest = z.object({
  agentId: z.string().min(1),
  model: z.string().nullish(),
  reasoning: z.string().nullish(),
  mode: z.literal("agent").optional(),
  /** The machine to test the agent on (`ssh://[user@]host[:port]`, `docker://CONTAINER`, a folder optional); absent: this one. */
  location: z.string().min(1).optional(),
});
export type ConnectionTestRequest = z.infer<typeof ConnectionTestRequest>;

/** Why a connection test failed, coarse enough for a one-line hint. */
export const ConnectionTestKind = z.enum(["auth", "quota", "upstream", "config", "timeout", "invalid_model_id", "not_installed", "unknown"]);
export type ConnectionTestKind = z.infer<typeof ConnectionTestKind>;

/** The answer (always HTTP 200): `ok`, or `kind` + `detail` saying what went wrong. */
export const ConnectionTestResult = z.object({
  ok: z.boolean(),
  kind: ConnectionTestKind.optional(),
  /** Spawn to end of the attempt. */
  latencyMs: z.number(),
  /** The model the test asked for (absent: the CLI's default). */
  model: z.string().optional(),
  agentName: z.string().optional(),
  /** The agent's reply on success; the reason (and what to do) on failure. */
  detail: z.string().optional(),
});
export type ConnectionTestResult = z.infer<typeof ConnectionTestResult>;
