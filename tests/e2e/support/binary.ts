/** Build dist/od once per test process and hand out copies that run from a folder outside the source tree. */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildEmbeddedAssets, buildOd } from "../../../scripts/build-binary.ts";

const root = join(import.meta.dir, "..", "..", "..");
let built: Promise<string> | undefined;

export function buildBinaryOnce(): Promise<string> {
  return (built ??= (async () => {
    await buildEmbeddedAssets();
    return buildOd(join(root, "dist", "od"));
  })());
}

/** A copy of the binary in a fresh temp folder (so nothing can resolve files relative to the source tree). */
export async function binaryCopy(): Promise<{ bin: string; dir: string }> {
  const source = await buildBinaryOnce();
  const dir = mkdtempSync(join(tmpdir(), "od-bin-"));
  const bin = join(dir, "od");
  copyFileSync(source, bin);
  return { bin, dir };
}
