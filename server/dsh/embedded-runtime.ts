/**
 * Where the profile tarball comes from: the binary's embedded copy (embedded-source.ts), dist/dsh packed on demand
 * in source runs (dev-source.ts), or any folder holding a manifest and its tarball (tests).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** A manifest (unverified: setup checks it against the bytes) and the tarball it names. */
export interface DshRuntimeSource {
  /** Parsed manifest.json; `unknown` until verifyManifestAndTarball has checked it. */
  manifest(): Promise<unknown>;
  readTarball(): Promise<Uint8Array>;
}

/** The folder pack-dsh-runtime.ts writes. */
export const DEV_DSH_DIST_DIR = fileURLToPath(new URL("../../dist/dsh/", import.meta.url));

/** Reads `<dir>/manifest.json` and the tarball it names from `dir`. */
export function folderDshRuntimeSource(dir: string = DEV_DSH_DIST_DIR): DshRuntimeSource {
  const readManifest = async (): Promise<unknown> => JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
  return {
    manifest: readManifest,
    async readTarball() {
      const manifest = (await readManifest()) as { file?: unknown };
      if (typeof manifest.file !== "string" || manifest.file.includes("/") || manifest.file.includes("\\")) {
        throw new Error("manifest.file is not a basename");
      }
      return new Uint8Array(await readFile(join(dir, manifest.file)));
    },
  };
}
