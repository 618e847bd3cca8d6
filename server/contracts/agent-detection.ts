/**
 * Shapes around detection that are not the wire list itself: the last complete detection of each agent that od keeps
 * in the data dir (`agents-cache.json`), so a pass that is still waiting on a slow CLI can show its last-good result
 * instead of nothing, and `od run` can skip probing an unchanged executable.
 */
import { z } from "./zod.ts";
import { AgentInfo, RuntimeModelOption } from "./agents.ts";

/** An executable as it was when it was probed: its resolved path, the file it leads to, its size and mtime. */
export const ExecutableStamp = z.object({
  path: z.string(),
  realPath: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
});
export type ExecutableStamp = z.infer<typeof ExecutableStamp>;

/** One agent's last complete detection. */
export const LastGoodDetection = z.object({
  info: AgentInfo,
  capabilities: z.record(z.string(), z.boolean()),
  liveModels: z.array(RuntimeModelOption).nullable(),
  /** When the pass that produced it finished (ms since the epoch). */
  at: z.number(),
  /** The executable it probed: `od run` reuses the result, without probing, while this is unchanged. */
  executable: ExecutableStamp.optional(),
  /** A run-only result (`od run`: no auth probe, no live models); a whole result is never replaced by one. */
  partial: z.boolean().optional(),
});
export type LastGoodDetection = z.infer<typeof LastGoodDetection>;

/**
 * `<data dir>/agents-cache.json`: each agent's LastGoodDetection as JSON text, sealed with a checksum of that text, in
 * the entry format `format` (see runtimes/detection-cache.ts).
 */
export const DetectionCacheFile = z.object({
  format: z.number().int(),
  agents: z.record(z.string(), z.object({ sum: z.string(), entry: z.string() })),
});
export type DetectionCacheFile = z.infer<typeof DetectionCacheFile>;
