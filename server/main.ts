/**
 * `od` entry point. `main()` is shared by the source run (`bun run server/main.ts`) and the compiled binary
 * (server/binary.ts), which differ only in where their assets come from (see `EmbeddedAssets`).
 */
import { buildCommands } from "./cli/commands.ts";
import { dispatch } from "./cli/dispatch.ts";
import { processIO } from "./cli/process-io.ts";
import type { ServeRuntime } from "./cli/serve-command.ts";
import type { BundledSkillFiles } from "./skills/bundled-root.ts";
import type { DshRuntimeSource } from "./dsh/embedded-runtime.ts";
import type { OpenApiSource } from "./http/openapi.ts";
import type { UiAssets } from "./http/ui.ts";
import { openBunSqlite } from "./platform/sqlite-bun.ts";
import { serveWithBun } from "./platform/serve-bun.ts";
import { VERSION } from "./version.ts";

/** What the binary compiles in and a source run reads from dist/: the UI bundle and the DSH profile tarball. */
export type EmbeddedAssets = {
  ui: () => UiAssets | undefined;
  /** The `open-design` profile package `od setup deepseek-harness` installs. */
  dshRuntime: () => DshRuntimeSource;
  /** Bundled skills compiled into the binary (source runs read server/skills/bundled/ directly). */
  bundledSkillFiles?: BundledSkillFiles;
  /** dist/openapi.json as the build generated it (source runs generate it on first request). */
  openApi?: OpenApiSource;
};

export async function main(argv: string[], assets: EmbeddedAssets): Promise<number> {
  const runtime: ServeRuntime = { openSqlite: openBunSqlite, serve: serveWithBun, ui: assets.ui, dshRuntime: assets.dshRuntime, bundledSkillFiles: assets.bundledSkillFiles, openApi: assets.openApi };
  const io = processIO();
  try {
    return await dispatch(argv, buildCommands(runtime), io, { version: VERSION, defaultCommand: "serve" });
  } catch (error) {
    io.stderr(`od: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/**
 * Source runs serve the UI bundle built by scripts/build-web.ts from dist/web. node:fs and node:path are fetched here,
 * not imported: the compiled binary shares this module, and loading them costs its shell a millisecond before listen.
 */
function diskUi(): UiAssets | undefined {
  const { join } = process.getBuiltinModule("node:path");
  const dir = join(import.meta.dir, "..", "dist", "web");
  if (process.getBuiltinModule("node:fs").existsSync(join(dir, "index.html"))) return { kind: "disk", dir };
  process.stderr.write("od: warning: dist/web is missing (run `npm run build:web`); serving the API only\n");
  return undefined;
}

if (import.meta.main) {
  // Imported here: the packer it uses (and its node:fs) is for source runs only.
  import("./dsh/dev-source.ts")
    .then(({ devDshRuntimeSource }) => main(process.argv.slice(2), { ui: diskUi, dshRuntime: devDshRuntimeSource }))
    .then((code) => process.exit(code));
}
