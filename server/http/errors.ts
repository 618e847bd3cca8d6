/** Typed HTTP failures: thrown by route handlers, turned into `{error:{code,message}}` by the app's error hook. */
import type { z } from "zod";
import type { ErrorBody } from "../contracts/http.ts";
import { OdError, type FailureKind } from "../errors.ts";

/** The status each kind of od failure answers with. */
const STATUS_OF: Record<FailureKind, number> = {
  invalid: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  machine_failed: 502,
  unavailable: 503,
  machine_timeout: 504,
  storage_full: 507,
};

const KIND_OF = new Map<number, FailureKind>(Object.entries(STATUS_OF).map(([kind, status]) => [status, kind as FailureKind]));

/** An answer only the HTTP layer gives (a status with no domain kind, e.g. 403 or 429, keeps its number). */
export class HttpError extends OdError {
  override name = "HttpError";
  constructor(
    readonly status: number,
    code: string,
    message: string,
    issues?: ErrorBody["error"]["issues"],
  ) {
    super(KIND_OF.get(status) ?? "invalid", code, message, issues);
  }
}

/** The status of a failure: an HttpError's own, else its kind's. */
export function statusOf(error: OdError): number {
  return error instanceof HttpError ? error.status : STATUS_OF[error.kind];
}

export function errorBody(error: OdError): ErrorBody {
  return { error: { code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}), ...(error.paths ? { paths: error.paths } : {}) } };
}

/** The response for any od failure. */
export function failureResponse(error: OdError): Response {
  return Response.json(errorBody(error), { status: statusOf(error) });
}

export function errorResponse(status: number, code: string, message: string): Response {
  return failureResponse(new HttpError(status, code, message));
}
/** Validate a request body against a schema; a failure is a 400 naming every issue's path. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: issue.message,
  }));
  const first = issues[0];
  const where = first && first.path.length ? `${first.path.join(".")}: ` : "";
  throw new HttpError(400, "BAD_REQUEST", `invalid request body: ${where}${first?.message ?? "invalid"}`, issues);
}
