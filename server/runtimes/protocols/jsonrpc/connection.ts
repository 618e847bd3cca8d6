/**
 * A JSON-RPC peer over NDJSON pipes: request/response correlation, notifications, server→client requests (unknown
 * methods answered with -32601), a serialized write queue, and rejection of every pending request when the agent's
 * output closes. Malformed frames are reported to `onMalformed` and skipped, never thrown.
 */
import type { ChildStdin } from "../../../platform/process.ts";
import { parseJsonLine, readLines } from "../ndjson.ts";
import { ConnectionClosedError, JsonRpcRequestError, RequestHandlerError } from "./errors.ts";
import { classifyFrame, JSON_RPC_CODES, type JsonRpcId } from "./frames.ts";

/** Callbacks and dialect of one connection. */
export type JsonRpcConnectionOptions = {
  /** Put `"jsonrpc":"2.0"` on outbound frames (ACP); codex app-server frames have none. */
  jsonrpcField: boolean;
  onNotification?: (method: string, params: unknown) => void;
  /** Answers a server→client request; throw `RequestHandlerError` to reply with an error. */
  onRequest?: (method: string, params: unknown) => unknown;
  /** A line that is not JSON or not a JSON-RPC frame. */
  onMalformed?: (line: string, reason: string) => void;
  /** Called for every inbound line before it is handled (watchdogs). */
  onLine?: (line: string) => void;
  log?: (msg: string) => void;
};

type Pending = { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void };

export class JsonRpcConnection {
  private nextId = 1;
  private readonly pending = new Map<JsonRpcId, Pending>();
  private writeChain: Promise<void> = Promise.resolve();
  private outputClosed = false;
  /** Resolves once the agent's stdout has ended (and every pending request was rejected). */
  readonly closed: Promise<void>;

  constructor(
    private readonly io: { stdin: ChildStdin; stdout: AsyncIterable<Uint8Array> },
    private readonly options: JsonRpcConnectionOptions,
  ) {
    this.closed = this.readLoop();
  }

  /** True once the agent's stdout ended. */
  get isClosed(): boolean {
    return this.outputClosed;
  }

  /** Sends a request; resolves with its result, rejects with `JsonRpcRequestError` or `ConnectionClosedError`. */
  request(method: string, params?: unknown): Promise<unknown> {
    if (this.outputClosed) return Promise.reject(new ConnectionClosedError(method, "agent output already closed"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.send(params === undefined ? { id, method } : { id, method, params }).catch((error: unknown) => {
        this.pending.delete(id);
        reject(new ConnectionClosedError(method, `could not write: ${errorText(error)}`));
      });
    });
  }

  /** Sends a notification (no reply expected). Write failures are logged, not thrown. */
  async notify(method: string, params?: unknown): Promise<void> {
    try {
      await this.send(params === undefined ? { method } : { method, params });
    } catch (error) {
      this.options.log?.(`could not send ${method}: ${errorText(error)}`);
    }
  }

  /** Closes the agent's stdin (idempotent). */
  end(): void {
    this.io.stdin.end();
  }

  private send(frame: Record<string, unknown>): Promise<void> {
    const body = this.options.jsonrpcField ? { jsonrpc: "2.0", ...frame } : frame;
    const line = `${JSON.stringify(body)}\n`;
    const write = this.writeChain.then(() => this.io.stdin.write(line));
    this.writeChain = write.catch(() => undefined);
    return write;
  }

  private async readLoop(): Promise<void> {
    for await (const line of readLines(this.io.stdout, this.options.log)) {
      this.options.onLine?.(line);
      this.handleLine(line);
    }
    this.outputClosed = true;
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.reject(new ConnectionClosedError(pending.method, "agent closed its output before answering"));
    }
  }

  private handleLine(line: string): void {
    const parsed = parseJsonLine(line);
    if (!parsed.ok) {
      this.options.onMalformed?.(line, parsed.reason);
      return;
    }
    const frame = classifyFrame(parsed.value);
    switch (frame.kind) {
      case "invalid":
        this.options.onMalformed?.(line, frame.reason);
        return;
      case "notification":
        this.safely(() => this.options.onNotification?.(frame.method, frame.params));
        return;
      case "request":
        void this.answer(frame.id, frame.method, frame.params);
        return;
      case "response": {
        const pending = this.pending.get(frame.id);
        if (!pending) return this.options.log?.(`response for unknown id ${String(frame.id)} ignored`);
        this.pending.delete(frame.id);
        pending.resolve(frame.result);
        return;
      }
      case "error-response": {
        const pending = frame.id === null ? undefined : this.pending.get(frame.id);
        if (!pending || frame.id === null) {
          return this.options.log?.(`error for unknown id ${String(frame.id)} ignored: ${frame.error.message}`);
        }
        this.pending.delete(frame.id);
        pending.reject(new JsonRpcRequestError(pending.method, frame.error));
        return;
      }
    }
  }

  private async answer(id: JsonRpcId, method: string, params: unknown): Promise<void> {
    let reply: Record<string, unknown>;
    try {
      if (!this.options.onRequest) throw RequestHandlerError.methodNotFound(method);
      const result = await this.options.onRequest(method, params);
      reply = { id, result: result ?? null };
    } catch (error) {
      const code = error instanceof RequestHandlerError ? error.code : JSON_RPC_CODES.internalError;
      const data = error instanceof RequestHandlerError && error.data !== undefined ? { data: error.data } : {};
      reply = { id, error: { code, message: errorText(error), ...data } };
    }
    try {
      await this.send(reply);
    } catch (error) {
      this.options.log?.(`could not answer ${method}: ${errorText(error)}`);
    }
  }

  private safely(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.options.log?.(`notification handler failed: ${errorText(error)}`);
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
