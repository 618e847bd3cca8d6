import { expect, test } from "bun:test";
import { sha256Hex, verifyManifestAndTarball } from "../../server/dsh/manifest.ts";

const bytes = new TextEncoder().encode("tarball bytes");
const good: Record<string, unknown> = { file: "open-design-dsh-runtime-0.1.0.tgz", packageName: "@open-design/dsh-runtime", schemaVersion: 1, sha256: sha256Hex(bytes), version: "0.1.0" };

test("a matching manifest verifies", () => {
  expect(verifyManifestAndTarball(good, bytes)).toEqual({ ok: true, manifest: good as never });
});

test.each([
  ["a path instead of a basename", { ...good, file: "../x.tgz" }],
  ["a non-tgz file", { ...good, file: "x.zip" }],
  ["another package", { ...good, packageName: "evil" }],
  ["another schema version", { ...good, schemaVersion: 2 }],
  ["an uppercase digest", { ...good, sha256: String(good.sha256).toUpperCase() }],
  ["a digest of other bytes", { ...good, sha256: sha256Hex(new Uint8Array([1])) }],
  ["not an object", "manifest"],
])("%s is BUNDLED_COMPANION_INVALID", (_name, manifest) => {
  expect(verifyManifestAndTarball(manifest, bytes)).toMatchObject({ ok: false, code: "BUNDLED_COMPANION_INVALID" });
});
