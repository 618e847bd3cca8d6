/**
 * The built binary, compiled once per content of its sources and handed out as copies that run from a folder outside
 * the source tree. A compile is two `bun build --compile`s and two recorded starts (scripts/build-binary.ts): the
 * e2e files, dealt into several test processes, each paid for one before; now the first to need it builds it into
 * dist/test-od/<hash of the sources>/ and every other process, and every later run on the same sources, copies it.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildEmbeddedAssets, buildOd } from "../../../scripts/build-binary.ts";
import { withBuildLock } from "../../support/build-lock.ts";
import { sourcesHash } from "./sources-hash.ts";

const root = join(import.meta.dir, "..", "..", "..");
const cacheDir = join(root, "dist", "test-od");
/**
 * What the binary is built from: its code, the UI, the build scripts (the TypeScript in scripts/, not the test
 * runner's shell script or its table of test costs), the dependencies, and the bun that compiles.
 */
const sources = () => [
  "server",
  "web",
  ...readdirSync(join(root, "scripts")).filter((name) => name.endsWith(".ts")).map((name) => join("scripts", name)),
  "package.json",
  "package-lock.json",
  "bunfig.toml",
  "tsconfig.json",
];
let built: Promise<string> | undefined;

export function buildBinaryOnce(): Promise<string> {
  return (built ??= cachedBuild());
}

async function cachedBuild(): Promise<string> {
  const key = sourcesHash(root, sources(), `${Bun.version} ${process.platform} ${process.arch}`);
  const binary = join(cacheDir, key, "od");
  if (existsSync(binary)) return binary;
  // One process builds while the others wait for its result.
  return withBuildLock(async () => {
    if (existsSync(binary)) return binary;
    mkdirSync(cacheDir, { recursive: true });
    const staging = mkdtempSync(join(cacheDir, `${key}.building-`));
    await buildEmbeddedAssets();
    await buildOd(join(staging, "od"));
    // Only the binary of the sources as they are now is kept (each is about 100 MB).
    for (const entry of readdirSync(cacheDir)) if (!entry.startsWith(key)) rmSync(join(cacheDir, entry), { recursive: true, force: true });
    rmSync(join(cacheDir, key), { recursive: true, force: true });
    renameSync(staging, join(cacheDir, key));
    return binary;
  });
}

/** A copy of the binary in a fresh temp folder (so nothing can resolve files relative to the source tree). */
export async function binaryCopy(): Promise<{ bin: string; dir: string }> {
  const source = await buildBinaryOnce();
  const dir = mkdtempSync(join(tmpdir(), "od-bin-"));
  const bin = join(dir, "od");
  copyFileSync(source, bin);
  return { bin, dir };
}
