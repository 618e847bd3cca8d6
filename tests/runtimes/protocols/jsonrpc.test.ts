import { describe, expect, test } from "bun:test";
import { ConnectionClosedError, JsonRpcRequestError, RequestHandlerError } from "../../../server/runtimes/protocols/jsonrpc/errors.ts";
import { JsonRpcConnection } from "../../../server/runtimes/protocols/jsonrpc/connection.ts";
import { classifyFrame } from "../../../server/runtimes/protocols/jsonrpc/frames.ts";
import { StageWatchdog, timeoutFromEnv } from "../../../server/runtimes/protocols/jsonrpc/watchdog.ts";
import { readLines } from "../../../server/runtimes/protocols/ndjson.ts";
import { memoryPipes, poll } from "../../support/protocol-pipes.ts";

describe("classifyFrame", () => {
  test("recognises both dialects and every frame kind", () => {
    expect(classifyFrame({ jsonrpc: "2.0", id: 0, method: "session/request_permission", params: {} }).kind).toBe("request");
    expect(classifyFrame({ method: "turn/started", params: {} }).kind).toBe("notification");
    expect(classifyFrame({ id: "a", result: null })).toEqual({ kind: "response", id: "a", result: null });
    expect(classifyFrame({ id: 3, error: { code: -1, message: "no" } })).toEqual({
      kind: "error-response",
      id: 3,
      error: { code: -1, message: "no" },
    });
    expect(classifyFrame([1]).kind).toBe("invalid");
    expect(classifyFrame({ id: 1 }).kind).toBe("invalid");
  });
});

describe("readLines", () => {
  test("splits on LF only, strips CR, drops blank lines, keeps an unterminated tail", async () => {
    const encoder = new TextEncoder();
    async function* chunks() {
      yield encoder.encode("a\r\n\nb\u2028c");
      yield encoder.encode("\ntail");
    }
    const lines: string[] = [];
    for await (const line of readLines(chunks())) lines.push(line);
    expect(lines).toEqual(["a", "b\u2028c", "tail"]);
  });
});

describe("JsonRpcConnection", () => {
  test("correlates a response split at every byte boundary, multi-byte text included", async () => {
    const frame = new TextEncoder().encode(`${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "héllo ✓ 🎉" } })}\n`);
    for (let cut = 1; cut < frame.length; cut++) {
      const pipes = memoryPipes();
      const connection = new JsonRpcConnection(pipes.io, { jsonrpcField: true });
      const answer = connection.request("ping", {});
      pipes.emit(frame.slice(0, cut));
      pipes.emit(frame.slice(cut));
      expect(await answer).toEqual({ text: "héllo ✓ 🎉" });
      pipes.closeOutput();
      await connection.closed;
    }
  });

  test("writes the jsonrpc field only in the 2.0 dialect", async () => {
    for (const jsonrpcField of [true, false]) {
      const pipes = memoryPipes();
      const connection = new JsonRpcConnection(pipes.io, { jsonrpcField });
      void connection.notify("initialized");
      const frame = await pipes.waitForWritten((f) => f.method === "initialized");
      expect("jsonrpc" in frame).toBe(jsonrpcField);
      pipes.closeOutput();
    }
  });

  test("surfaces malformed frames and keeps going", async () => {
    const pipes = memoryPipes();
    const malformed: string[] = [];
    const connection = new JsonRpcConnection(pipes.io, {
      jsonrpcField: true,
      onMalformed: (line) => malformed.push(line),
    });
    const answer = connection.request("x");
    pipes.emit("not json\n[1,2]\n{\"id\":1,\"result\":7}\n");
    expect(await answer).toBe(7);
    expect(malformed).toEqual(["not json", "[1,2]"]);
    pipes.closeOutput();
  });

  test("rejects pending requests when the agent's output closes, and error responses as typed errors", async () => {
    const pipes = memoryPipes();
    const connection = new JsonRpcConnection(pipes.io, { jsonrpcField: true });
    const failing = connection.request("a");
    const hanging = connection.request("b");
    pipes.emitFrame({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "boom", data: { retryable: true } } });
    const error = await failing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcRequestError);
    expect((error as JsonRpcRequestError).data).toEqual({ retryable: true });
    pipes.closeOutput();
    expect(await hanging.catch((e: unknown) => e)).toBeInstanceOf(ConnectionClosedError);
    expect(await connection.request("c").catch((e: unknown) => e)).toBeInstanceOf(ConnectionClosedError);
  });

  test("answers server→client requests: handler result, handler error, and -32601 for unknown methods", async () => {
    const pipes = memoryPipes();
    new JsonRpcConnection(pipes.io, {
      jsonrpcField: false,
      onRequest: (method) => {
        if (method === "known") return { ok: true };
        if (method === "refused") throw new RequestHandlerError(-32000, "nope");
        throw RequestHandlerError.methodNotFound(method);
      },
    });
    pipes.emitFrame({ id: 0, method: "known", params: {} });
    pipes.emitFrame({ id: 1, method: "refused" });
    pipes.emitFrame({ id: "x", method: "fs/read_text_file" });
    expect(await pipes.waitForWritten((f) => f.id === 0)).toEqual({ id: 0, result: { ok: true } });
    expect(await pipes.waitForWritten((f) => f.id === 1)).toEqual({ id: 1, error: { code: -32000, message: "nope" } });
    const unknown = await pipes.waitForWritten((f) => f.id === "x");
    expect((unknown.error as { code: number }).code).toBe(-32601);
    pipes.closeOutput();
  });

  test("serializes writes in call order", async () => {
    const pipes = memoryPipes();
    const connection = new JsonRpcConnection(pipes.io, { jsonrpcField: true });
    for (let index = 0; index < 20; index++) void connection.notify(`n${index}`);
    await poll(() => pipes.written.length === 20);
    expect(pipes.written.map((f) => (f as { method: string }).method)).toEqual(Array.from({ length: 20 }, (_, i) => `n${i}`));
    pipes.closeOutput();
  });
});

describe("StageWatchdog", () => {
  test("fires for a silent stage, is reset by activity, and is disabled at ≤0", async () => {
    const fired: string[] = [];
    const watchdog = new StageWatchdog(40, (stage) => fired.push(stage));
    watchdog.start("initialize");
    await poll(() => fired.length === 1, 1000);
    expect(fired).toEqual(["initialize"]);
    const never = new StageWatchdog(0, (stage) => fired.push(stage));
    never.start("prompt");
    watchdog.stop();
    expect(timeoutFromEnv("0", 600_000)).toBe(0);
    expect(timeoutFromEnv("-5", 600_000)).toBe(0);
    expect(timeoutFromEnv("junk", 600_000)).toBe(600_000);
    expect(timeoutFromEnv(undefined, 600_000)).toBe(600_000);
    expect(fired).toEqual(["initialize"]);
  });
});
