/**
 * How large a request body od reads, by route (server/http/body-limit.ts applies them). Plain numbers, no schema:
 * the daemon applies them before its engine (and zod) has loaded.
 * - Routes anyone may call (`POST /api/session`, the page itself): 4 KiB. A launch code is a few dozen bytes, and a
 *   caller without a credential must not make od hold more.
 * - Authenticated JSON (prompts, config, skills, MCP servers): 16 MiB.
 * - Image uploads (`POST /api/projects/:id/uploads`): a 10 MB image, base64-encoded, in its JSON envelope.
 */

/** Largest accepted image, in bytes (decoded). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Base64 text longer than this cannot decode to ≤ MAX_UPLOAD_BYTES (data-URL prefix and line breaks allowed for). */
export const MAX_UPLOAD_BASE64_CHARS = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4 + 4096;

export const OPEN_ROUTE_BODY_LIMIT = 4 * 1024;
export const JSON_BODY_LIMIT = 16 * 1024 * 1024;
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BASE64_CHARS + 64 * 1024;
