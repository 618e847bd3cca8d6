/**
 * The browser UI. In development it is served from dist/web on disk through @elysiajs/static; in the binary, from
 * the embedded copies through a fixed route table, so nothing else the binary embeds (DSH tarball, skills) is
 * reachable over HTTP.
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { staticPlugin } from "@elysiajs/static";
import { Elysia } from "elysia";
export { UI_SECURITY_HEADERS, withSecurityHeaders } from "./security-headers.ts";

export type UiAssets =
  | { kind: "disk"; dir: string }
  /** URL path → a path readable with node:fs (an embedded `/$bunfs/…` path inside the binary). */
  | { kind: "embedded"; files: Record<string, string> };

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".png": "image/png",
};

export async function uiRoutes(assets: UiAssets): Promise<Elysia> {
  if (assets.kind === "disk") {
    const plugin = await staticPlugin({ assets: assets.dir, prefix: "/", indexHTML: true, alwaysStatic: false });
    return new Elysia({ name: "ui" }).use(plugin);
  }
  const app = new Elysia({ name: "ui" });
  for (const [urlPath, filePath] of Object.entries(assets.files)) {
    // Read at the first request, not at start-up: a daemon no tab has opened yet does not hold the bundle (~0.3 MB).
    let body: Uint8Array<ArrayBuffer> | undefined;
    const type = CONTENT_TYPES[extname(urlPath === "/" ? "index.html" : urlPath)] ?? "application/octet-stream";
    app.get(urlPath, () => new Response((body ??= new Uint8Array(readFileSync(filePath))), { headers: { "content-type": type } }));
  }
  return app as unknown as Elysia;
}
