/**
 * The request guard (DESIGN.md "Security model"). Any request that can start a run can run code on the user's
 * machine, so: the Host must be a loopback name with our port (DNS rebinding), a present Origin must be our own
 * (cross-site pages, other loopback ports), writes must be JSON (no simple-request form posts), and every /api
 * route but health needs the launch token as a cookie or bearer header. `/?token=` trades the token for the cookie.
 */
import { errorResponse } from "./errors.ts";

export const TOKEN_COOKIE = "od_token";

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const OPEN_API_PATHS = new Set(["/api/health"]);

export type GuardOptions = {
  token: string;
  /** The port we listen on (known only after listen when started with port 0). */
  port: () => number;
  /** A non-loopback host the user chose with --host, also accepted in Host headers. */
  extraHostNames?: string[];
};

/** Returns a refusal Response, or undefined to let the request through. */
export function createGuard(options: GuardOptions): (request: Request) => Response | undefined {
  const tokenBytes = new TextEncoder().encode(options.token);
  const tokenMatches = (candidate: string | null | undefined): boolean => {
    if (!candidate) return false;
    const bytes = new TextEncoder().encode(candidate);
    return bytes.length === tokenBytes.length && constantTimeEqual(bytes, tokenBytes);
  };

  return (request) => {
    const url = new URL(request.url);
    const host = request.headers.get("host") ?? url.host;
    const port = options.port();
    const allowedHosts = [...LOOPBACK_NAMES, ...(options.extraHostNames ?? [])].map((name) => `${name}:${port}`);
    if (!allowedHosts.includes(host.toLowerCase())) {
      return errorResponse(403, "FORBIDDEN_HOST", `requests must address od as ${allowedHosts[0]}, not ${host}`);
    }

    const origin = request.headers.get("origin");
    if (origin !== null && origin !== `http://${host.toLowerCase()}`) {
      return errorResponse(403, "FORBIDDEN_ORIGIN", `cross-origin requests are refused (origin ${origin})`);
    }

    if (url.pathname === "/" && url.searchParams.has("token")) {
      if (!tokenMatches(url.searchParams.get("token"))) {
        return errorResponse(401, "INVALID_TOKEN", "this link's token is not valid for the running od; use the URL od printed");
      }
      return new Response(null, {
        status: 302,
        headers: {
          location: "/",
          "set-cookie": `${TOKEN_COOKIE}=${options.token}; HttpOnly; SameSite=Strict; Path=/`,
          "cache-control": "no-store",
        },
      });
    }

    if (!url.pathname.startsWith("/api/") || OPEN_API_PATHS.has(url.pathname)) return undefined;

    if (!tokenMatches(bearerToken(request) ?? cookieValue(request, TOKEN_COOKIE))) {
      return errorResponse(401, "UNAUTHORIZED", "missing or invalid token: open the URL od printed, or send Authorization: Bearer");
    }

    if (WRITE_METHODS.has(request.method)) {
      const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
      if (type !== "application/json") {
        return errorResponse(415, "UNSUPPORTED_MEDIA_TYPE", `${request.method} requests must send Content-Type: application/json`);
      }
    }
    return undefined;
  };
}

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}

function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/** Byte equality whose time does not depend on where the inputs differ (node:crypto's timingSafeEqual, without its start-up cost). */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
