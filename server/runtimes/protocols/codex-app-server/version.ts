/**
 * The running codex app-server's version, read from initialize's `userAgent` (`open-design/0.171.0 (Debian …) …`),
 * and the one feature gated on it: apply_patch streaming previews, wired through app-server from 0.123.0.
 */
import { compareVersions } from "../acp/params.ts";

/** First stable codex release whose app-server emits `item/fileChange/patchUpdated`. */
export const PATCH_STREAMING_MIN_VERSION = "0.123.0";

/** `{version, prerelease}` from a userAgent, or null when it names no version. */
export function serverVersion(userAgent: unknown): { version: string; prerelease: boolean } | null {
  if (typeof userAgent !== "string") return null;
  const match = /^[^/\s]+\/(\d+\.\d+\.\d+)(-[0-9A-Za-z.-]+)?(?:\s|$)/.exec(userAgent);
  if (!match?.[1]) return null;
  return { version: match[1], prerelease: match[2] !== undefined };
}

/** Enable `features.apply_patch_streaming_events` only for a stable server ≥ 0.123.0 (unknown/prerelease → off). */
export function supportsPatchStreaming(userAgent: unknown): boolean {
  const parsed = serverVersion(userAgent);
  return parsed !== null && !parsed.prerelease && compareVersions(parsed.version, PATCH_STREAMING_MIN_VERSION) >= 0;
}
