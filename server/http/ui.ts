/**
 * The browser UI. In development it is served from dist/web on disk through @elysiajs/static; in the binary, from
 * the embedded copies through a fixed route table, so nothing else the binary embeds (DSH tarball, skills) is
 * reachable over HTTP.
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { staticPlugin } from "@elysiajs/static";
import { Elysia } from "elysia";

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

/**
 * Headers for every page response. The CSP allows only our own scripts (no inline, no eval), so even if agent
 * output ever reached the DOM unsanitised it could not run; previews live in sandboxed frames.
 */
export const UI_SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; frame-src 'self' blob: data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** Adds the security headers to a non-API response (the static plugin does not apply custom headers to files). */
export function withSecurityHeaders(request: Request, response: Response): Response {
  if (new URL(request.url).pathname.startsWith("/api/")) return response;
  const headers = new Headers(response.headers);
  for (const [key, value] of Object.entries(UI_SECURITY_HEADERS)) if (!headers.has(key)) headers.set(key, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export async function uiRoutes(assets: UiAssets): Promise<Elysia> {
  if (assets.kind === "disk") {
    const plugin = await staticPlugin({ assets: assets.dir, prefix: "/", indexHTML: true, alwaysStatic: false });
    return new Elysia({ name: "ui" }).use(plugin);
  }
  const app = new Elysia({ name: "ui" });
  for (const [urlPath, filePath] of Object.entries(assets.files)) {
    const body = readFileSync(filePath);
    const type = CONTENT_TYPES[extname(urlPath === "/" ? "index.html" : urlPath)] ?? "application/octet-stream";
    app.get(urlPath, () => new Response(body, { headers: { "content-type": type } }));
  }
  return app as unknown as Elysia;
}
