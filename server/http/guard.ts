/**
 * The request guard (DESIGN.md "Security model"). Any request that can start a run can run code on the user's
 * machine, so:
 * - the Host must be a loopback name with our port (DNS rebinding); a missing or malformed Host is a 400;
 * - a present Origin must be our own, and `/api` refuses requests a browser marks `Sec-Fetch-Site: same-site` or
 *   `cross-site` (another port of 127.0.0.1 is same-site, and its no-cors GETs carry no Origin);
 * - every `/api` route but health and the launch-code trade needs `Authorization: Bearer` with the API token or a
 *   session secret (credentials.ts); no cookie authenticates anything, since browsers send cookies to every port;
 * - a GET of one project file, or of a run's whole answer, may instead carry a short-lived ticket (frames, images
 *   and new tabs cannot send the header);
 * - writes must be JSON (no simple-request form posts); a DELETE may have no body at all.
 */
import type { Credentials } from "./credentials.ts";
import { errorResponse } from "./errors.ts";
import { SIGN_IN_ADVICE } from "../contracts/sign-in-command.ts";

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Routes that authenticate nothing themselves: health, and trading a launch code for a session. */
export const OPEN_API_ROUTES = new Set(["GET /api/health", "HEAD /api/health", "POST /api/session"]);
const FOREIGN_SITES = new Set(["same-site", "cross-site"]);
/** The routes a ticket can open: one project file, or a run's whole answer. */
const TICKETED_ROUTE = /^\/api\/(?:projects\/[^/]+\/files\/raw|runs\/[^/]+\/output)$/;

export type GuardOptions = {
  credentials: Credentials;
  /** The port we listen on (known only after listen when started with port 0). */
  port: () => number;
  /** A non-loopback host the user chose with --host, also accepted in Host headers. */
  extraHostNames?: string[];
};

/** Returns a refusal Response, or undefined to let the request through. */
export function createGuard(options: GuardOptions): (request: Request) => Response | undefined {
  const { credentials } = options;
  return (request) => {
    // Bun builds request.url from the Host header: without one (HTTP/1.0) it is a bare path, with a malformed one
    // it does not parse. In-process requests (tests) carry their host only in the URL.
    const url = URL.parse(request.url);
    const host = (request.headers.get("host") ?? url?.host)?.toLowerCase();
    if (!host) return errorResponse(400, "BAD_HOST", "requests must carry a Host header naming od (HTTP/1.1)");
    if (!url || !isWellFormedHost(host)) return errorResponse(400, "BAD_HOST", "the request's Host header is malformed");

    const port = options.port();
    const allowedHosts = [...LOOPBACK_NAMES, ...(options.extraHostNames ?? [])].map((name) => `${name}:${port}`);
    if (!allowedHosts.includes(host)) {
      return errorResponse(403, "FORBIDDEN_HOST", `requests must address od as ${allowedHosts[0]}, not ${host}`);
    }

    const origin = request.headers.get("origin");
    if (origin !== null && origin !== `http://${host}`) {
      return errorResponse(403, "FORBIDDEN_ORIGIN", `cross-origin requests are refused (origin ${origin})`);
    }

    if (!url.pathname.startsWith("/api/")) return undefined;
    const site = request.headers.get("sec-fetch-site");
    if (site && FOREIGN_SITES.has(site)) {
      return errorResponse(403, "FORBIDDEN_SITE", `requests from another site or port are refused (sec-fetch-site: ${site})`);
    }
    if (OPEN_API_ROUTES.has(`${request.method} ${url.pathname}`)) return undefined;

    if (!credentials.authenticates(bearerToken(request)) && !ticketAllows(credentials, request, url)) {
      return errorResponse(401, "UNAUTHORIZED", `not signed in: ${SIGN_IN_ADVICE}; scripts send Authorization: Bearer`);
    }

    if (WRITE_METHODS.has(request.method) && !(request.method === "DELETE" && !hasBody(request))) {
      const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
      if (type !== "application/json") {
        return errorResponse(415, "UNSUPPORTED_MEDIA_TYPE", `${request.method} requests must send Content-Type: application/json`);
      }
    }
    return undefined;
  };
}

/** `name:port`, `[v6]:port` or a bare name — nothing a URL parser would read differently (`a:b:c`, `x@y`, spaces). */
function isWellFormedHost(host: string): boolean {
  return /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/.test(host);
}

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}

function ticketAllows(credentials: Credentials, request: Request, url: URL): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const ticket = url.searchParams.get("ticket");
  if (!ticket || !TICKETED_ROUTE.test(url.pathname)) return false;
  return credentials.fileTicketAllows(ticket, { pathname: url.pathname, path: url.searchParams.get("path") ?? "" });
}

function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return request.headers.has("transfer-encoding") || (length !== null && length !== "0");
}
