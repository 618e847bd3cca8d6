/** A scripted fetch for web model tests: route → handler, every call recorded. */
import type { FetchLike } from "../../web/api/client.ts";

export type FakeRoute = (init: RequestInit | undefined, url: string) => Response | Promise<Response>;

export function fakeFetch(routes: Record<string, FakeRoute>) {
  const calls: Array<{ method: string; url: string; body?: unknown }> = [];
  const fetch: FetchLike = async (url, init) => {
    const method = init?.method ?? "GET";
    calls.push({ method, url, body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined });
    const route = routes[`${method} ${url}`] ?? routes[`${method} ${url.split("?")[0]}`];
    if (!route) return Response.json({ error: { code: "NOT_FOUND", message: `no route ${method} ${url}` } }, { status: 404 });
    return route(init, url);
  };
  return { fetch, calls };
}

/** A response body the test writes SSE text into, frame by frame. */
export function sseBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: () => new Response(stream, { headers: { "content-type": "text/event-stream" } }),
    send: (event: string, data: unknown) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
    raw: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
  };
}

/** Polls a condition (no fixed sleeps); rejects after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** A whole streamed detection pass (`POST /api/agents/rescan?stream=1`): one `agent` frame per agent, then `done`. */
export function agentsStream(agents: readonly unknown[]): Response {
  const text = agents.map((agent) => `event: agent\ndata: ${JSON.stringify(agent)}\n\n`).join("") + "event: done\ndata: {}\n\n";
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}
