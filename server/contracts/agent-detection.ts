/**
 * Shapes around detection that are not the wire list itself: the probe budgets a local profile may set, and the
 * last complete detection of each agent that od keeps in the data dir (`agents-cache.json`), so a pass that is
 * still waiting on a slow CLI can show its last-good result instead of nothing.
 */
import { z } from "zod";
import { AgentInfo, RuntimeModelOption } from "./agents.ts";

const Milliseconds = z.number().int().positive().max(10 * 60_000);

/** Per-probe time limits in milliseconds (a local profile's `probeTimeouts`). */
export const ProbeTimeouts = z
  .object({
    versionMs: Milliseconds.optional(),
    helpMs: Milliseconds.optional(),
    modelsMs: Milliseconds.optional(),
    authMs: Milliseconds.optional(),
  })
  .strict();
export type ProbeTimeouts = z.infer<typeof ProbeTimeouts>;

/** One agent's last complete detection. */
export const LastGoodDetection = z.object({
  info: AgentInfo,
  capabilities: z.record(z.string(), z.boolean()),
  liveModels: z.array(RuntimeModelOption).nullable(),
  /** When the pass that produced it finished (ms since the epoch). */
  at: z.number(),
});
export type LastGoodDetection = z.infer<typeof LastGoodDetection>;

/** `<data dir>/agents-cache.json`. */
export const DetectionCacheFile = z.object({ agents: z.record(z.string(), LastGoodDetection) });
export type DetectionCacheFile = z.infer<typeof DetectionCacheFile>;
