/**
 * Our own fake model API for driving real coding-agent CLIs offline (real-clis.md §16). It speaks Anthropic
 * Messages, OpenAI Chat Completions and OpenAI Responses on 127.0.0.1, picks a scenario from a `[[od:…]]`
 * directive in the latest real user prompt, answers with the CLI's own tools, and logs every request.
 *
 * Standalone: `node_modules/.bin/bun tests/fakes/model-server.ts [--log <file.jsonl>]` prints its URL.
 */
import { appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicError, anthropicJson, streamAnthropic } from "./model-server/anthropic.ts";
import { chatJson, openAiError, streamChat } from "./model-server/chat.ts";
import { readConversation } from "./model-server/conversation.ts";
import { parseBody, readBody, redactHeaders, sendJson, SseWriter } from "./model-server/http.ts";
import { directiveOf, planAnswer, type PlannerState } from "./model-server/plan.ts";
import { responsesJson, streamResponses } from "./model-server/responses.ts";
import type { FakeModelServerOptions, LoggedRequest, ModelApi } from "./model-server/types.ts";

export type { FakeModelServerOptions, LoggedRequest } from "./model-server/types.ts";

/** A running fake model server. */
export type FakeModelServer = {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:40123`. CLIs usually want `${url}/v1`. */
  url: string;
  port: number;
  /** Every request so far, oldest first (in-flight streams included). */
  requests(): LoggedRequest[];
  clearRequests(): void;
  /** Close the listener and every open connection. */
  stop(): Promise<void>;
};

/** Model ids the fake lists on `GET …/models`. */
export const FAKE_MODEL_IDS = ["fake-model", "fake-model-mini", "fake-model-responses"];

function routeOf(method: string, path: string): LoggedRequest["route"] {
  if ((method === "GET" || method === "HEAD") && path.endsWith("/models")) return "models";
  if (method !== "POST") return "not_found";
  if (path.endsWith("/messages/count_tokens")) return "count_tokens";
  if (path.endsWith("/messages")) return "anthropic";
  if (path.endsWith("/chat/completions")) return "chat";
  if (path.endsWith("/responses")) return "responses";
  return "not_found";
}

function errorBody(api: ModelApi, status: number, message: string): Record<string, unknown> {
  return api === "anthropic" ? anthropicError(status, message) : openAiError(status, message);
}

function modelList(): Record<string, unknown> {
  const data = FAKE_MODEL_IDS.map((id) => ({
    id,
    object: "model",
    type: "model",
    display_name: id,
    created: 1_700_000_000,
    created_at: "2024-01-01T00:00:00Z",
    owned_by: "od-fake",
  }));
  return { object: "list", data, has_more: false, first_id: data[0]?.id, last_id: data.at(-1)?.id };
}

/** Start the fake on 127.0.0.1 with an OS-chosen port. */
export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const log: LoggedRequest[] = [];
  let seq = 0;
  const state: PlannerState = {
    slowIntervalMs: options.slowIntervalMs ?? 100,
    longDeltas: options.longDeltas ?? 200,
    failures: new Map(),
  };
  const record = (entry: LoggedRequest) => {
    log.push(entry);
    if (options.logFile) appendFileSync(options.logFile, `${JSON.stringify(entry)}\n`);
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const method = request.method ?? "GET";
    const { text, decodeError } = await readBody(request);
    const body = parseBody(text);
    const route = routeOf(method, url.pathname);
    const entry: LoggedRequest = {
      seq: ++seq,
      at: new Date().toISOString(),
      method,
      path: url.pathname,
      query: url.search,
      headers: redactHeaders(request.headers),
      body,
      route,
      status: 200,
    };

    if (decodeError) {
      entry.status = 415;
      record(entry);
      return sendJson(response, 415, openAiError(415, `od-fake: ${decodeError}`));
    }
    if (route === "not_found") {
      entry.status = 404;
      record(entry);
      return sendJson(response, 404, { type: "error", error: { type: "not_found_error", message: `od-fake: no route for ${method} ${url.pathname}` } });
    }
    if (route === "models") {
      record(entry);
      return sendJson(response, 200, modelList());
    }
    if (route === "count_tokens") {
      record(entry);
      return sendJson(response, 200, { input_tokens: Math.max(1, Math.ceil(text.length / 4)) });
    }

    const conversation = readConversation(route, body);
    const directive = directiveOf(conversation);
    const plan = planAnswer(conversation, state);
    entry.scenario = directive?.name ?? "text";
    entry.directive = directive;
    entry.step = conversation.step;
    entry.userMessages = conversation.userTexts.length;
    entry.toolNames = conversation.tools.map((tool) => tool.name);

    if (plan.kind === "error") {
      entry.status = plan.status;
      record(entry);
      const headers: Record<string, string> = { "x-request-id": `req_od${entry.seq}`, "request-id": `req_od${entry.seq}` };
      if (plan.retryAfter !== undefined) headers["retry-after"] = plan.retryAfter;
      return sendJson(response, plan.status, errorBody(route, plan.status, plan.message), headers);
    }
    if (plan.pacing.kind === "drop") {
      entry.status = 0;
      record(entry);
      request.socket.destroy();
      return;
    }
    if (!conversation.stream) {
      if (plan.pacing.kind === "midstream-error" && directive?.args.fallback === "fail") {
        entry.status = 529;
        record(entry);
        return sendJson(response, 529, errorBody(route, 529, "od-fake: simulated overload of the non-streaming fallback"));
      }
      record(entry);
      const answer = route === "anthropic" ? anthropicJson(plan, conversation) : route === "chat" ? chatJson(plan, conversation) : responsesJson(plan, conversation);
      return sendJson(response, 200, answer);
    }
    record(entry);
    const writer = new SseWriter(response);
    const stream = route === "anthropic" ? streamAnthropic : route === "chat" ? streamChat : streamResponses;
    await stream(plan, conversation, writer);
    writer.end();
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, openAiError(500, `od-fake internal error: ${String(error)}`));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: () => [...log],
    clearRequests: () => {
      log.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.main) {
  const logIndex = process.argv.indexOf("--log");
  const logFile = logIndex > 0 ? process.argv[logIndex + 1] : undefined;
  const fake = await startFakeModelServer({ logFile });
  console.log(fake.url);
  const shutdown = () => void fake.stop().then(() => process.exit(0));
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
