/** Errors raised by the JSON-RPC core; transports turn them into typed failures. */
import type { JsonRpcErrorObject } from "./frames.ts";
import { JSON_RPC_CODES } from "./frames.ts";

/** The peer answered a request with a JSON-RPC error. */
export class JsonRpcRequestError extends Error {
  override name = "JsonRpcRequestError";
  readonly code: number;
  readonly data: unknown;
  constructor(
    readonly method: string,
    error: JsonRpcErrorObject,
  ) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

/** The connection closed (EOF, stdin gone) before a pending request was answered. */
export class ConnectionClosedError extends Error {
  override name = "ConnectionClosedError";
  constructor(readonly method: string, reason: string) {
    super(`${method}: ${reason}`);
  }
}

/** Thrown by a server→client request handler to answer with a JSON-RPC error. */
export class RequestHandlerError extends Error {
  override name = "RequestHandlerError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  static methodNotFound(method: string): RequestHandlerError {
    return new RequestHandlerError(JSON_RPC_CODES.methodNotFound, `Method not found: ${method}`);
  }
}
