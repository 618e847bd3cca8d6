/** The shape of version-policy.json, checked by scripts/gen-dsh-installers.ts and its tests (not at run time). */
import { z } from "../contracts/zod.ts";

export const DshVersionPolicy = z.object({
  schemaVersion: z.literal(1),
  /** The `?version=N` of the published bootstrap scripts. */
  bootstrapVersion: z.number().int().positive(),
  /** Exact versions the installers pin. */
  node: z.string().regex(/^\d+\.\d+\.\d+$/),
  dsh: z.string().min(1),
  pnpm: z.string().regex(/^\d+\.\d+\.\d+$/),
  /** DSH releases tested with the profile. */
  supportedDshVersions: z.array(z.string()).min(1),
});
export type DshVersionPolicy = z.infer<typeof DshVersionPolicy>;
