/**
 * The UI's only way to the daemon. Every request carries the page's session secret as `Authorization: Bearer`
 * (session.ts); writes are JSON (the guard refuses anything else). Errors come back as `{error:{code,message}}`
 * and become an ApiError.
 */
import { BrowserSession, pageStorage } from "./session.ts";
/** Where a request body was wrong (`error.issues`: the path into the body, and what is wrong there). */
export type ApiIssue = { path: (string | number)[]; message: string };

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: readonly ApiIssue[] = [],
    /** The files the failure is about (an apply's or a revert's conflict). */
    readonly paths: readonly string[] = [],
  ) {
    super(message);
  }
}

/** The subset of `fetch` the UI uses; tests pass their own. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Typed JSON calls against the daemon. */
export interface Api {
  get<T>(path: string, signal?: AbortSignal): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
  /** The raw response (for SSE bodies and file bytes). */
  raw(path: string, init?: RequestInit): Promise<Response>;
}

/** `credential` gives the bearer secret to send (null: none). */
export function createApi(fetchImpl: FetchLike = (input, init) => fetch(input, init), credential: () => string | null = () => null): Api {
  const send = (path: string, init: RequestInit = {}) => {
    const secret = credential();
    if (!secret) return fetchImpl(path, init);
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${secret}`);
    return fetchImpl(path, { ...init, headers });
  };
  async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const withBody = body !== undefined || (method !== "GET" && method !== "DELETE");
    const res = await send(path, {
      method,
      signal,
      headers: withBody ? { "content-type": "application/json" } : {},
      body: body === undefined ? (withBody ? "{}" : undefined) : JSON.stringify(body),
    });
    const data = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string; issues?: ApiIssue[]; paths?: string[] } } | null;
    if (!res.ok) throw new ApiError(res.status, data?.error?.code ?? "HTTP_ERROR", data?.error?.message ?? res.statusText, data?.error?.issues ?? [], data?.error?.paths ?? []);
    return data as T;
  }
  return {
    get: (path, signal) => call("GET", path, undefined, signal),
    post: (path, body) => call("POST", path, body),
    put: (path, body) => call("PUT", path, body),
    del: (path) => call("DELETE", path),
    raw: send,
  };
}

/** True when the endpoint does not exist (yet): lets optional features (skills, MCP) hide themselves. */
export function isMissingEndpoint(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405);
}

/** A sentence for people from anything thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The page's sign-in (its secret lives in this origin's localStorage). */
export const pageSession = new BrowserSession(pageStorage());

/** The shared client for the page; models take an `Api` so tests can inject their own. */
export const defaultApi: Api = createApi(undefined, () => pageSession.secret());

/** Back-compat helper: one JSON call with the page's fetch. */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = init.method ?? "GET";
  if (method === "GET") return defaultApi.get<T>(path);
  if (method === "DELETE") return defaultApi.del<T>(path);
  return method === "PUT" ? defaultApi.put<T>(path, init.body) : defaultApi.post<T>(path, init.body);
}
