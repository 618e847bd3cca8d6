/**
 * The manifest that travels with the embedded profile tarball (dist/dsh/manifest.json), and the check that the
 * bytes about to be installed are exactly the ones the manifest names.
 */
import { sha256 } from "../node-crypto.ts";
import { z } from "../contracts/zod.ts";

export const DSH_RUNTIME_PACKAGE = "@open-design/dsh-runtime";

/** `{file, packageName, schemaVersion: 1, sha256, version}`. */
export const DshRuntimeManifest = z.object({
  /** Basename of the tarball, e.g. `open-design-dsh-runtime-0.1.0.tgz`. */
  file: z.string().regex(/^[^/\\]+\.tgz$/, "file must be a .tgz basename"),
  packageName: z.literal(DSH_RUNTIME_PACKAGE),
  schemaVersion: z.literal(1),
  /** SHA-256 of the tarball bytes, 64 lowercase hex digits. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "sha256 must be 64 lowercase hex digits"),
  /** The package version inside the tarball (what the profile reports as plugin_version). */
  version: z.string().min(1),
});
export type DshRuntimeManifest = z.infer<typeof DshRuntimeManifest>;

export type ManifestVerification =
  | { ok: true; manifest: DshRuntimeManifest }
  | { ok: false; code: "BUNDLED_COMPANION_INVALID"; message: string };

export const sha256Hex = (bytes: Uint8Array): string => sha256().update(bytes).digest("hex");

/** Schema, `.tgz` basename and SHA-256 of the bytes. Never throws. */
export function verifyManifestAndTarball(manifest: unknown, bytes: Uint8Array): ManifestVerification {
  const parsed = DshRuntimeManifest.safeParse(manifest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, code: "BUNDLED_COMPANION_INVALID", message: `manifest invalid: ${issue?.path.join(".")} ${issue?.message}` };
  }
  const actual = sha256Hex(bytes);
  if (actual !== parsed.data.sha256) {
    return { ok: false, code: "BUNDLED_COMPANION_INVALID", message: `tarball sha256 ${actual} does not match manifest ${parsed.data.sha256}` };
  }
  return { ok: true, manifest: parsed.data };
}
