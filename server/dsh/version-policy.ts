/**
 * The one source of the DeepSeek Harness toolchain versions: the def reads it for detection, and
 * scripts/gen-dsh-installers.ts templates it into install-dsh.{sh,ps1,cmd} (with a --check mode for CI).
 */
import type { DshVersionPolicy } from "./version-policy-schema.ts";
import raw from "./version-policy.json" with { type: "json" };

/**
 * The policy as the build embeds it. Checked against DshVersionPolicy (version-policy-schema.ts) by the installer
 * generator and its tests rather than on every start: building and running the schema would load zod into every `od run`.
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
