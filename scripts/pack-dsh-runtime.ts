/**
 * Packs server/dsh-runtime into dist/dsh/open-design-dsh-runtime-<version>.tgz with `npm pack` (which normalises
 * mtimes and ordering, so the same sources give the same bytes) and writes dist/dsh/manifest.json, plus an exact
 * copy of the tarball under the fixed name the binary embeds (server/dsh/embedded-source.ts imports it statically).
 *
 *   bun run scripts/pack-dsh-runtime.ts [--out <dir>]
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnChild } from "../server/platform/process.ts";
import { DSH_RUNTIME_PACKAGE, sha256Hex, type DshRuntimeManifest } from "../server/dsh/manifest.ts";

export const DSH_RUNTIME_SOURCE_DIR = fileURLToPath(new URL("../server/dsh-runtime/", import.meta.url));
export const DSH_DIST_DIR = fileURLToPath(new URL("../dist/dsh/", import.meta.url));
/** The version-free name the binary embeds; its bytes equal `manifest.file`'s. */
export const EMBEDDED_TARBALL_NAME = "runtime.tgz";

export async function packDshRuntime(options: { sourceDir?: string; outDir?: string } = {}): Promise<{ manifest: DshRuntimeManifest; tarballPath: string }> {
  const sourceDir = options.sourceDir ?? DSH_RUNTIME_SOURCE_DIR;
  const outDir = resolve(options.outDir ?? DSH_DIST_DIR);
  mkdirSync(outDir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(sourceDir, "package.json"), "utf8")) as { name: string; version: string };
  if (pkg.name !== DSH_RUNTIME_PACKAGE) throw new Error(`${sourceDir} is ${pkg.name}, expected ${DSH_RUNTIME_PACKAGE}`);

  const child = await spawnChild({
    argv: ["npm", "pack", "--pack-destination", outDir, "--json", "--ignore-scripts"],
    cwd: sourceDir,
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" },
  });
  const [stdout, stderr, exit] = await Promise.all([text(child.stdout), text(child.stderr), child.exited]);
  if (exit.code !== 0) throw new Error(`npm pack failed (${exit.code ?? exit.signal}): ${stderr.trim()}`);
  const file = (JSON.parse(stdout) as Array<{ filename: string }>)[0]?.filename.replace(/^.*[/\\]/, "");
  if (!file?.endsWith(".tgz")) throw new Error(`npm pack printed no tarball name: ${stdout}`);

  const tarballPath = join(outDir, file);
  const manifest: DshRuntimeManifest = {
    file,
    packageName: DSH_RUNTIME_PACKAGE,
    schemaVersion: 1,
    sha256: sha256Hex(readFileSync(tarballPath)),
    version: pkg.version,
  };
  copyFileSync(tarballPath, join(outDir, EMBEDDED_TARBALL_NAME));
  writeFileSync(join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, tarballPath };
}

async function text(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let out = "";
  for await (const chunk of stream) out += decoder.decode(chunk, { stream: true });
  return out + decoder.decode();
}

// No top-level await: the binary's graph reaches this module (source runs pack on demand) and bytecode forbids it.
if (import.meta.main) {
  const outIndex = process.argv.indexOf("--out");
  void packDshRuntime({ outDir: outIndex === -1 ? undefined : process.argv[outIndex + 1] }).then(({ manifest, tarballPath }) => {
    console.log(`packed ${tarballPath}\nsha256 ${manifest.sha256}`);
  });
}
