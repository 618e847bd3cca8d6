/**
 * Where the profile tarball comes from: the binary's embedded copy (embedded-source.ts), dist/dsh packed on demand
 * in source runs (dev-source.ts), or any folder holding a manifest and its tarball (tests).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A manifest (unverified: setup checks it against the bytes) and the tarball it names. */
export interface DshRuntimeSource {
  /** Parsed manifest.json; `unknown` until verifyManifestAndTarball has checked it. */
  manifest(): Promise<unknown>;
  readTarball(): Promise<Uint8Array>;
}

/** The folder pack-dsh-runtime.ts writes. */
export const DEV_DSH_DIST_DIR = join(import.meta.dirname, "..", "..", "dist", "dsh");

/** Reads `<dir>/manifest.json` and the tarball it names from `dir`. */
export function folderDshRuntimeSource(dir: string = DEV_DSH_DIST_DIR): DshRuntimeSource {
  const readManifest = async (): Promise<unknown> => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  return {
    manifest: readManifest,
    async readTarball() {
      const manifest = (await readManifest()) as { file?: unknown };
      if (typeof manifest.file !== "string" || manifest.file.includes("/") || manifest.file.includes("\\")) {
        throw new Error("manifest.file is not a basename");
      }
      return new Uint8Array(readFileSync(join(dir, manifest.file)));
    },
  };
}
