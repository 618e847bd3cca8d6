import { describe, expect, test } from "bun:test";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { createApi } from "../../web/api/client.ts";
import { createRunEventStream, parseRunEventData } from "../../web/api/run-events.ts";
import { runEvents } from "../support/web-run-events.ts";

const frame = (event: RunEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** A body that sends `frames`, then ends (a dropped connection) unless they include `end`. */
function sseBody(frames: string[]): Response {
  return new Response(new Blob(frames).stream(), { headers: { "content-type": "text/event-stream" } });
}

function waitFor(check: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => (check() ? resolve() : Date.now() - started > 5000 ? reject(new Error("timed out")) : setTimeout(tick, 5));
    tick();
  });
}

describe("run event stream (fetch, bearer header, own reconnect)", () => {
  test("sends the page's secret, reconnects with Last-Event-ID after a drop, skips replayed ids, stops after end", async () => {
    const e = runEvents();
    const [start, stderr, error, end] = [e.start(), e.stderr("x"), e.error("X", "boom"), e.end({ status: "failed" })];
    const requests: Array<{ url: string; auth: string | null; lastEventId: string | null }> = [];
    const responses = [sseBody([frame(start), frame(stderr)]), sseBody([frame(stderr), frame(error), frame(end)])];
    const api = createApi(
      async (url, init) => {
        const headers = new Headers(init?.headers);
        requests.push({ url, auth: headers.get("authorization"), lastEventId: headers.get("last-event-id") });
        return responses.shift() ?? new Response("no more", { status: 500 });
      },
      () => "session-secret",
    );
    const received: RunEvent[] = [];
    const trouble: string[] = [];
    createRunEventStream(api, { retryMs: 1 })("run/1", (event) => received.push(event), (message) => trouble.push(message));
    await waitFor(() => received.at(-1)?.type === "end");
    await Bun.sleep(20); // nothing reconnects after end
    expect(received.map((event) => event.type)).toEqual(["start", "stderr", "error", "end"]);
    expect(requests).toEqual([
      { url: "/api/runs/run%2F1/events", auth: "Bearer session-secret", lastEventId: null },
      { url: "/api/runs/run%2F1/events", auth: "Bearer session-secret", lastEventId: String(stderr.id) },
    ]);
    expect(trouble).toEqual(["connection lost; reconnecting…"]);
  });

  test("a refusal a retry cannot mend (401) is reported once, without reconnect loops", async () => {
    let calls = 0;
    const api = createApi(async () => {
      calls++;
      return Response.json({ error: { code: "UNAUTHORIZED", message: "not signed in" } }, { status: 401 });
    });
    const trouble: string[] = [];
    createRunEventStream(api, { retryMs: 1 })("r", () => {}, (message) => trouble.push(message));
    await waitFor(() => trouble.length > 0);
    await Bun.sleep(20);
    expect(calls).toBe(1);
    expect(trouble).toEqual(["cannot follow this run: not signed in"]);
  });

  test("unsubscribing aborts the request", async () => {
    let signal: AbortSignal | undefined;
    const api = createApi(async (_url, init) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>(() => {});
    });
    const stop = createRunEventStream(api)("r", () => {});
    await waitFor(() => signal !== undefined);
    stop();
    expect(signal!.aborted).toBe(true);
  });

  test("frame data that is not a RunEvent is ignored", () => {
    expect(parseRunEventData("{nope")).toBeNull();
    expect(parseRunEventData(JSON.stringify({ id: 1, type: "mystery" }))).toBeNull();
    expect(parseRunEventData(JSON.stringify({ type: "end" }))).toBeNull();
    expect(parseRunEventData(undefined)).toBeNull();
  });
});
