/**
 * Request bodies are read no further than their route's limit (server/contracts/body-limits.ts): a body that says
 * it is larger (`Content-Length`) is refused at once, unread; one that does not say (chunked) is counted as it
 * streams and refused where it passes the limit. Either way the answer is 413 `PAYLOAD_TOO_LARGE`, and od never
 * holds more than the limit of it. Eight parallel 100 MB bodies to the open `POST /api/session` once took od from
 * 70 MB to 944 MB, since the framework parses a body whole before any handler sees it.
 * Routes that need a credential get their larger limit by route alone: the guard refuses a request without one
 * before anything reads its body.
 */
import { JSON_BODY_LIMIT, OPEN_ROUTE_BODY_LIMIT, UPLOAD_BODY_LIMIT } from "../contracts/body-limits.ts";
import { errorResponse } from "./errors.ts";
import { OPEN_API_ROUTES } from "./guard.ts";

const UPLOAD_ROUTE = /^\/api\/projects\/[^/]+\/uploads$/;

/** Thrown into the body stream past the limit; the app's error hook answers it with the 413. */
export class PayloadTooLargeError extends Error {
  override name = "PayloadTooLargeError";
  readonly status = 413;
  readonly code = "PAYLOAD_TOO_LARGE";
  constructor(readonly limit: number) {
    super(`the request body is larger than this route accepts (${limit} bytes)`);
  }
}

/** The most bytes of body `method pathname` may carry. */
export function bodyLimitOf(method: string, pathname: string): number {
  if (!pathname.startsWith("/api/") || OPEN_API_ROUTES.has(`${method} ${pathname}`)) return OPEN_ROUTE_BODY_LIMIT;
  return method === "POST" && UPLOAD_ROUTE.test(pathname) ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT;
}

/**
 * The 413. The connection stays open: the server discards the rest of the body as it arrives (memory stays flat),
 * and the client reliably reads the answer. Closing at once made the kernel reset the connection over the unread
 * bytes, and a client still sending often lost the 413 with it.
 */
export function payloadTooLarge(limit: number): Response {
  const error = new PayloadTooLargeError(limit);
  return errorResponse(error.status, error.code, error.message);
}

/**
 * The request as the app may read it: unchanged when it has no body or declares one within the limit, a 413 when
 * it declares more, and a copy whose body errors past the limit when it declares no length.
 */
export function limitRequestBody(request: Request): Request | Response {
  if (!request.body) return request;
  const limit = bodyLimitOf(request.method, URL.parse(request.url)?.pathname ?? "");
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    const length = Number(declared);
    // A malformed length never reaches us (the HTTP parser refuses it); refuse anything unusable all the same.
    return Number.isSafeInteger(length) && length >= 0 && length <= limit ? request : payloadTooLarge(limit);
  }
  let seen = 0;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(new PayloadTooLargeError(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(request.url, { method: request.method, headers: request.headers, body: counted, signal: request.signal, duplex: "half" } as RequestInit);
}
