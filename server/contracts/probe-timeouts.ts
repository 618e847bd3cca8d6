/** The probe budgets a local profile may set (`probeTimeouts`), apart from the agent list's schemas it needs none of. */
import { z } from "./zod.ts";

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
