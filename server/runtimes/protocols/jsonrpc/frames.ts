/**
 * JSON-RPC frame classification, tolerant of both dialects we speak: JSON-RPC 2.0 (ACP, `"jsonrpc":"2.0"`) and
 * codex app-server's variant without the `jsonrpc` field. A pure function: anything unrecognisable is `invalid`.
 */
import { isRecord } from "../../streams/tool-kind.ts";

/** Request/response ids: agents may start at 0 and may use strings. */
export type JsonRpcId = number | string;

/** The error object of a failed response. */
export type JsonRpcErrorObject = { code: number; message: string; data?: unknown };

/** What one inbound line turned out to be. */
export type InboundFrame =
  | { kind: "request"; id: JsonRpcId; method: string; params: unknown }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "response"; id: JsonRpcId; result: unknown }
  | { kind: "error-response"; id: JsonRpcId | null; error: JsonRpcErrorObject }
  | { kind: "invalid"; reason: string };

/** Standard JSON-RPC error codes. */
export const JSON_RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** Classifies one decoded JSON value. */
export function classifyFrame(value: unknown): InboundFrame {
  if (!isRecord(value)) return { kind: "invalid", reason: "frame is not a JSON object" };
  const id = readId(value.id);
  const method = typeof value.method === "string" ? value.method : undefined;
  if (method !== undefined) {
    if (id !== undefined) return { kind: "request", id, method, params: value.params };
    return { kind: "notification", method, params: value.params };
  }
  if ("error" in value && value.error !== undefined && value.error !== null) {
    return { kind: "error-response", id: id ?? null, error: readError(value.error) };
  }
  if (id !== undefined && "result" in value) return { kind: "response", id, result: value.result };
  return { kind: "invalid", reason: "frame has neither method nor result/error" };
}

function readId(id: unknown): JsonRpcId | undefined {
  if (typeof id === "number" && Number.isFinite(id)) return id;
  if (typeof id === "string") return id;
  return undefined;
}

function readError(error: unknown): JsonRpcErrorObject {
  if (!isRecord(error)) return { code: JSON_RPC_CODES.internalError, message: String(error) };
  const code = typeof error.code === "number" ? error.code : JSON_RPC_CODES.internalError;
  const message = typeof error.message === "string" ? error.message : JSON.stringify(error);
  return "data" in error ? { code, message, data: error.data } : { code, message };
}
