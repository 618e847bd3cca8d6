/**
 * Source runs (`bun run server/main.ts`, tests of the daemon) install the profile packed from server/dsh-runtime
 * into dist/dsh. It is packed on first use in each process, so an edit to the runtime source is what setup installs.
 */
import { DEV_DSH_DIST_DIR, folderDshRuntimeSource, type DshRuntimeSource } from "./embedded-runtime.ts";

let packed: Promise<unknown> | undefined;

/** Packs server/dsh-runtime into dist/dsh once per process (npm pack), then reads it like the binary's copy. */
export function devDshRuntimeSource(): DshRuntimeSource {
  const folder = folderDshRuntimeSource(DEV_DSH_DIST_DIR);
  const ready = () =>
    (packed ??= import("../../scripts/pack-dsh-runtime.ts").then(({ packDshRuntime }) => packDshRuntime({ outDir: DEV_DSH_DIST_DIR })).catch((error: unknown) => {
      packed = undefined;
      throw error;
    }));
  return {
    manifest: async () => (await ready(), folder.manifest()),
    readTarball: async () => (await ready(), folder.readTarball()),
  };
}
