#!/usr/bin/env bun
/** Bundles the Preact UI into dist/web (app.js, app.css, index.html, favicon.svg). */
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const out = join(root, "dist", "web");

export async function buildWeb(): Promise<string> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const js = await Bun.build({
    entrypoints: [join(root, "web", "main.tsx")],
    outdir: out,
    target: "browser",
    minify: true,
    naming: "app.[ext]",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const css = await Bun.build({ entrypoints: [join(root, "web", "styles.css")], outdir: out, minify: true, naming: "app.[ext]" });
  for (const result of [js, css]) {
    if (!result.success) {
      for (const log of result.logs) console.error(log);
      throw new Error("web build failed");
    }
  }
  copyFileSync(join(root, "web", "index.html"), join(out, "index.html"));
  copyFileSync(join(root, "web", "favicon.svg"), join(out, "favicon.svg"));
  return out;
}

if (import.meta.main) {
  const dir = await buildWeb();
  // On stderr: under `npm start` the daemon's URL line must be the first line on stdout.
  console.error(`web bundle written to ${dir.replace(root + "/", "")}`);
}
