/**
 * The profile tarball and manifest compiled into the `od` binary (dist/dsh, written by scripts/pack-dsh-runtime.ts
 * before the compile). Imported only through server/embedded.ts by the binary entry, so source runs never need it.
 * The imports are `/$bunfs/…` paths: readable with node:fs in this process, invisible to child processes, which is
 * why setup copies the bytes out before dsh sees them.
 */
import manifestImport from "../../dist/dsh/manifest.json" with { type: "file" };
import tarballPath from "../../dist/dsh/runtime.tgz" with { type: "file" };
import type { DshRuntimeSource } from "./embedded-runtime.ts";

// Once packed, the type checker sees the real JSON file; with `type: "file"` it is a path either way.
const manifestPath = manifestImport as unknown as string;

// node:fs is fetched when setup reads the files, not imported: loading it would cost the binary's shell a millisecond.
const readFile = (path: string) => process.getBuiltinModule("node:fs").readFileSync(path);

export const embeddedDshRuntime: DshRuntimeSource = {
  manifest: async () => JSON.parse(readFile(manifestPath).toString("utf8")) as unknown,
  readTarball: async () => new Uint8Array(readFile(tarballPath)),
};
