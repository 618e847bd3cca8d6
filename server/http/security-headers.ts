/**
 * Headers for every page response (no framework imports: the daemon applies them before the engine has loaded). The CSP allows only our own scripts (no inline, no eval), so even if agent
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
  if (URL.parse(request.url)?.pathname.startsWith("/api/") ?? true) return response;
  const headers = new Headers(response.headers);
  for (const [key, value] of Object.entries(UI_SECURITY_HEADERS)) if (!headers.has(key)) headers.set(key, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
