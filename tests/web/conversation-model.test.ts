import { describe, expect, test } from "bun:test";
import type { Message } from "../../server/contracts/projects.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { createApi } from "../../web/api/client.ts";
import type { RunEventStream } from "../../web/api/run-events.ts";
import { createConversationModel } from "../../web/state/conversation.ts";
import { manualScheduler } from "../../web/state/scheduler.ts";
import { fakeFetch, until } from "../support/web-fake-fetch.ts";
import { runEvents } from "../support/web-run-events.ts";

function message(over: Partial<Message>): Message {
  return { id: "m", conversationId: "c1", role: "user", text: "", runId: null, runStatus: null, agentId: null, startedAt: null, endedAt: null, files: [], createdAt: 1, ...over };
}

function recordingStream() {
  const listeners = new Map<string, (event: RunEvent) => void>();
  const stream: RunEventStream = (runId, onEvent) => {
    listeners.set(runId, onEvent);
    return () => listeners.delete(runId);
  };
  return { stream, listeners };
}

describe("conversation model", () => {
  test("a reload resumes the active run from id 0 next to the persisted messages, folding replays once", async () => {
    const { fetch, calls } = fakeFetch({
      "GET /api/conversations/c1/messages": () =>
        Response.json({
          messages: [
            message({ id: "u1", text: "make a page" }),
            message({ id: "a1", role: "assistant", runId: "r1", runStatus: "running", events: [{ type: "text", text: "partial" }] }),
          ],
        }),
      "GET /api/runs": () => Response.json({ runs: [{ id: "r1" }] }),
    });
    const frames = manualScheduler();
    const { stream, listeners } = recordingStream();
    const model = createConversationModel({ api: createApi(fetch), stream, schedule: frames.schedule });
    await model.load("p1", "c1");
    expect(calls.map((c) => c.url)).toContain("/api/runs?conversationId=c1&status=active");
    expect(model.timeline.value.map((e) => e.kind)).toEqual(["user", "run"]);
    const e = runEvents("r1");
    const events = [e.start(), e.agent({ type: "text_delta", delta: "Hello" })];
    for (const event of [...events, ...events]) listeners.get("r1")!(event); // the stream replays what a reconnect already delivered
    frames.runFrame();
    const run = model.activeRun.value!;
    expect(run.state.value.items).toEqual([{ kind: "text", key: expect.any(String), text: "Hello" }]);
    model.dispose();
    expect(listeners.size).toBe(0);
  });

  test("sending without a conversation creates one, shows the prompt at once and streams the run", async () => {
    let created: string | undefined;
    const { fetch, calls } = fakeFetch({
      "POST /api/runs": () => Response.json({ runId: "r2", conversationId: "c9" }, { status: 202 }),
      "GET /api/conversations/c9/messages": () => Response.json({ messages: [] }),
    });
    const frames = manualScheduler();
    const { stream, listeners } = recordingStream();
    const model = createConversationModel({ api: createApi(fetch), stream, schedule: frames.schedule, onConversationCreated: (id) => (created = id) });
    await model.load("p1", null);
    expect(await model.send({ message: "hi", agentId: "claude", model: "sonnet" })).toBe(true);
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ message: "hi", agentId: "claude", model: "sonnet", projectId: "p1" });
    expect(created).toBe("c9");
    expect(model.conversationId.value).toBe("c9");
    expect(listeners.has("r2")).toBe(true);
    expect(model.timeline.value.map((e) => e.kind)[1]).toBe("run");
    await until(() => calls.some((c) => c.url === "/api/conversations/c9/messages"));
  });

  test("a history turn folds its persisted events into the same view state", async () => {
    const model = createConversationModel({ api: createApi(fakeFetch({}).fetch), stream: recordingStream().stream });
    const state = model.historyOf(
      message({
        id: "a",
        role: "assistant",
        runId: "r",
        runStatus: "succeeded",
        text: "done",
        files: ["index.html"],
        events: [
          { type: "thinking", text: "hmm" },
          { type: "tool_use", id: "t", name: "Write", input: {}, kind: "file_write", path: "index.html" },
          { type: "tool_result", toolUseId: "t", content: "ok" },
          { type: "text", text: "done" },
          { type: "usage", inputTokens: 3, outputTokens: 4, costUsd: 0.01 },
        ],
      }),
    );
    expect(state.items.map((i) => i.kind)).toEqual(["thinking", "tool", "text"]);
    expect(state.items[1]).toMatchObject({ toolKind: "file_write", result: "ok", state: "done" });
    expect(state.usage).toMatchObject({ inputTokens: 3, costUsd: 0.01 });
    expect(state.files).toEqual(["index.html"]);
    expect(state.end).toMatchObject({ status: "succeeded", files: ["index.html"] });
  });

  test("a history turn keeps how it ended: a run that ended while the page was away still shows its banner", () => {
    const model = createConversationModel({ api: createApi(fakeFetch({}).fetch), stream: recordingStream().stream });
    const history = (over: Partial<Message>) => model.historyOf(message({ role: "assistant", runId: "r", agentId: "claude", startedAt: 1000, endedAt: 4000, ...over }));
    expect(history({ id: "c", runStatus: "canceled" }).end).toMatchObject({ status: "canceled", durationMs: 3000 });
    expect(history({ id: "c", runStatus: "canceled" }).agentId).toBe("claude");
    const failed = history({ id: "f", runStatus: "failed", events: [{ type: "error", message: "quota exhausted", code: "QUOTA" }] });
    expect(failed.end).toMatchObject({ status: "failed", reason: "quota exhausted" });
    expect(history({ id: "r", runStatus: "running" }).end).toBeUndefined();
    expect(history({ id: "n", runStatus: null }).end).toBeUndefined();
  });
});
