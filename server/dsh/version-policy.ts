/**
 * The one source of the DeepSeek Harness toolchain versions: the def reads it for detection, and
 * scripts/gen-dsh-installers.ts templates it into install-dsh.{sh,ps1,cmd} (with a --check mode for CI).
 */
import { z } from "../contracts/zod.ts";
import raw from "./version-policy.json" with { type: "json" };

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

/**
 * The policy as the build embeds it. Checked against DshVersionPolicy by the installer generator and its tests rather
 * than on every start: a first zod parse costs `od run` about half a millisecond.
 */
export const DSH_VERSION_POLICY: DshVersionPolicy = raw as DshVersionPolicy;

/**
 * Accepted `dsh --version`s: the tested list, any stable 0.1.x, 0.1.0-rc.6 and later, any 0.1.1-rc.N or 0.1.2-rc.N.
 * @example isSupportedDshVersion("dsh 0.1.1-rc.4") // true
 */
export function isSupportedDshVersion(output: string): boolean {
  const match = /(\d+)\.(\d+)\.(\d+)(?:-rc\.(\d+))?/.exec(output);
  if (!match) return false;
  const [, major, minor, patch, rc] = match;
  if (DSH_VERSION_POLICY.supportedDshVersions.includes(match[0])) return true;
  if (major !== "0" || minor !== "1") return false;
  if (rc === undefined) return true;
  if (patch === "0") return Number(rc) >= 6;
  return patch === "1" || patch === "2";
}
