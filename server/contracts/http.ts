/** The error body every refused or failed API request gets. */
import { z } from "./zod.ts";

export const ErrorBody = z.object({
  error: z.object({
    /** Stable machine-readable code, e.g. `UNAUTHORIZED`, `BAD_REQUEST`, `UNKNOWN_AGENT`. */
    code: z.string(),
    message: z.string(),
    /** For validation failures: where in the body, as zod paths. */
    issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional(),
    /** For `APPLY_CONFLICT`: the project-relative files in conflict. */
    paths: z.array(z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const HealthResponse = z.object({
  ok: z.literal(true),
  version: z.string(),
  /** False while the engine (catalog, runs, routes) is still loading after start; other requests wait for it. */
  ready: z.boolean(),
});
