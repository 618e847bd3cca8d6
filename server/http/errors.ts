/** Typed HTTP failures: thrown by route handlers, turned into `{error:{code,message}}` by the app's error hook. */
import type { z } from "zod";
import type { ErrorBody } from "../contracts/http.ts";

export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: ErrorBody["error"]["issues"],
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) } };
  }
}

export function errorResponse(status: number, code: string, message: string): Response {
  return Response.json(new HttpError(status, code, message).toBody(), { status });
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
