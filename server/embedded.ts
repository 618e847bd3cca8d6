/**
 * Files compiled into the binary. Imported only by server/binary.ts, so source runs and tests never need dist/.
 * Each import is a path readable with node:fs (`/$bunfs/…` inside the binary).
 */
import appCss from "../dist/web/app.css" with { type: "file" };
import appJs from "../dist/web/app.js" with { type: "file" };
import favicon from "../dist/web/favicon.svg" with { type: "file" };
import indexHtmlImport from "../dist/web/index.html" with { type: "file" };
import openApiImport from "../dist/openapi.json" with { type: "file" };
import { embeddedDshRuntime } from "./dsh/embedded-source.ts";
import type { UiAssets } from "./http/ui.ts";
import { BUNDLED_SKILL_FILES } from "./skills/bundled-index.ts";
import type { EmbeddedAssets } from "./main.ts";

// bun-types types every .html import as an HTML bundle; with `type: "file"` it is a plain path.
const indexHtml = indexHtmlImport as unknown as string;
// Likewise a .json import (typed as its content when the file exists).
const openApiPath = openApiImport as unknown as string;

/** The UI route table: these paths and nothing else the binary embeds are served over HTTP. */
export const embeddedUi: UiAssets = {
  kind: "embedded",
  files: { "/": indexHtml, "/index.html": indexHtml, "/app.js": appJs, "/app.css": appCss, "/favicon.svg": favicon },
};

/** Everything main() takes from the binary. */
export const embeddedAssets: EmbeddedAssets = {
  ui: () => embeddedUi,
  dshRuntime: () => embeddedDshRuntime,
  bundledSkillFiles: BUNDLED_SKILL_FILES,
  // Read when a client first asks: node:fs is fetched then, not imported by the binary's shell.
  openApi: () => process.getBuiltinModule("node:fs").readFileSync(openApiPath, "utf8"),
};
