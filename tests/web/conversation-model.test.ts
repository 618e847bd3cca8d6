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
    await until(() => calls.some((c) => c.url === "/api/conversations/c9/messages?events=0"));
  });

  // Issue #34: history is the run's stored events through the live fold, not a second reading of the message.
  test("a history turn folds its run's stored events with the live fold, once they arrive", async () => {
    const e = runEvents("r");
    const stored = [
      e.start({ model: "sonnet" }),
      e.agent({ type: "thinking_delta", delta: "hmm" }, 700),
      e.agent({ type: "tool_use", id: "t", name: "Write", input: {}, kind: "file_write", path: "index.html" }),
      e.agent({ type: "tool_use", id: "u", name: "Bash", input: { command: "ls" }, kind: "command" }),
      e.agent({ type: "tool_result", toolUseId: "t", content: "ok" }),
      e.agent({ type: "text_delta", delta: "done" }),
      e.agent({ type: "usage", usage: { input_tokens: 3, output_tokens: 4, cached_read_tokens: 9 }, costUsd: 0.01 }),
      e.end({ status: "canceled", reason: "canceled", files: ["index.html"] }),
    ];
    const { fetch, calls } = fakeFetch({ "GET /api/runs/r/history": () => Response.json({ runId: "r", events: stored }) });
    const model = createConversationModel({ api: createApi(fetch), stream: recordingStream().stream });
    const turn = message({ id: "a", role: "assistant", runId: "r", runStatus: "canceled", text: "done", files: ["index.html"] });
    expect(model.historyOf(turn).statusLabel).toBe("loading");
    await until(() => model.historyOf(turn).statusLabel !== "loading");
    const state = model.historyOf(turn);
    expect(state.items.map((i) => i.kind)).toEqual(["thinking", "tool", "tool", "text"]);
    expect(state.items[1]).toMatchObject({ toolKind: "file_write", result: "ok", state: "done" });
    expect(state.items[2]).toMatchObject({ toolKind: "command", state: "canceled" });
    expect(state).toMatchObject({ model: "sonnet", ttftMs: 700 });
    expect(state.usage).toMatchObject({ inputTokens: 3, cachedReadTokens: 9, costUsd: 0.01 });
    expect(state.files).toEqual(["index.html"]);
    expect(state.end).toMatchObject({ status: "canceled", files: ["index.html"] });
    expect(calls.filter((c) => c.url === "/api/runs/r/history")).toHaveLength(1);
  });

  test("a history turn without stored events keeps its text and how it ended", async () => {
    const { fetch } = fakeFetch({ "GET /api/runs/r/history": () => Response.json({ runId: "r", events: [] }) });
    const model = createConversationModel({ api: createApi(fetch), stream: recordingStream().stream });
    const history = async (over: Partial<Message>) => {
      const turn = message({ role: "assistant", runId: "r", agentId: "claude", startedAt: 1000, endedAt: 4000, ...over });
      model.historyOf(turn);
      await until(() => model.historyOf(turn).statusLabel !== "loading");
      return model.historyOf(turn);
    };
    const canceled = await history({ id: "c", runStatus: "canceled", text: "partial" });
    expect(canceled.end).toMatchObject({ status: "canceled", durationMs: 3000 });
    expect(canceled.agentId).toBe("claude");
    expect(canceled.items).toEqual([{ kind: "text", key: expect.any(String), text: "partial" }]);
    expect((await history({ id: "r", runStatus: "running" })).end).toBeUndefined();
    // A run the daemon does not know (404) is shown from its message too.
    const gone = await history({ id: "g", runId: "missing", runStatus: "succeeded", text: "kept" });
    expect(gone.items).toEqual([{ kind: "text", key: expect.any(String), text: "kept" }]);
  });

  // Issue #40: a long conversation opens fetching the turns it shows, not every turn it ever had.
  test("a finished turn is fetched when a view asks for it, once; loading says whether an asked turn is still on its way", async () => {
    const turns = Array.from({ length: 6 }, (_, i) => message({ id: `a${i}`, role: "assistant", runId: `r${i}`, runStatus: "succeeded", text: `answer ${i}` }));
    const gates = new Map<string, () => void>();
    const { fetch, calls } = fakeFetch({
      "GET /api/conversations/c1/messages": () => Response.json({ messages: [message({ id: "u0", text: "go" }), ...turns, message({ id: "a-live", role: "assistant", runId: "live", runStatus: "running" })] }),
      "GET /api/runs": () => Response.json({ runs: [{ id: "live" }] }),
      ...Object.fromEntries(
        turns.map((turn) => [`GET /api/runs/${turn.runId}/history`, (_init: unknown, url: string) => new Promise<Response>((resolve) => gates.set(url, () => resolve(Response.json({ runId: turn.runId, events: [] }))))]),
      ),
    });
    const model = createConversationModel({ api: createApi(fetch), stream: recordingStream().stream, schedule: manualScheduler().schedule });
    await model.load("p1", "c1");
    const fetched = () => calls.filter((c) => c.url.endsWith("/history")).map((c) => c.url);
    expect(fetched()).toEqual([]);
    expect(model.historiesLoading.value).toBe(false);

    // Asking without fetching: nothing is requested and there is nothing to show yet.
    expect(model.fetchedHistoryOf(turns[4]!)).toBeUndefined();
    expect(fetched()).toEqual([]);

    model.historyOf(turns[4]!);
    model.historyOf(turns[4]!);
    expect(fetched()).toEqual(["/api/runs/r4/history"]);
    expect(model.historiesLoading.value).toBe(true);
    await until(() => gates.has("/api/runs/r4/history"));
    gates.get("/api/runs/r4/history")!();
    await until(() => model.fetchedHistoryOf(turns[4]!) !== undefined);
    expect(model.fetchedHistoryOf(turns[4]!)!.items).toEqual([{ kind: "text", key: expect.any(String), text: "answer 4" }]);
    expect(model.historiesLoading.value).toBe(false);
    // Each arrival is counted: the timeline renders again and measures the turn's new height.
    expect(model.historiesArrived.value).toBe(1);

    // Going back to a saved place: every finished turn, each once, and not the live run's.
    model.fetchAllHistories();
    expect(fetched().sort()).toEqual(turns.map((_, i) => `/api/runs/r${i}/history`).sort());
    expect(model.historiesLoading.value).toBe(true);
    await until(() => gates.size === turns.length);
    for (const open of gates.values()) open();
    await until(() => !model.historiesLoading.value);
    expect(turns.every((turn) => model.fetchedHistoryOf(turn) !== undefined)).toBe(true);
    expect(model.historiesArrived.value).toBe(turns.length);
    model.dispose();
  });
});

describe("follow-ups queued while a run works", () => {
  async function running() {
    let posted = 0;
    const { fetch, calls } = fakeFetch({
      "GET /api/conversations/c1/messages": () => Response.json({ messages: [] }),
      "GET /api/conversations/c2/messages": () => Response.json({ messages: [] }),
      "GET /api/runs": () => Response.json({ runs: [{ id: "r1" }] }),
      "POST /api/runs": () => Response.json({ runId: `r${++posted + 1}`, conversationId: "c1" }, { status: 202 }),
    });
    const frames = manualScheduler();
    const { stream, listeners } = recordingStream();
    const model = createConversationModel({ api: createApi(fetch), stream, schedule: frames.schedule });
    await model.load("p1", "c1");
    const e = runEvents("r1");
    listeners.get("r1")!(e.start());
    frames.runFrame();
    const end = (status: "succeeded" | "canceled") => {
      listeners.get("r1")!(e.end({ status }));
      frames.runFrame();
    };
    const posts = () => calls.filter((c) => c.method === "POST").map((c) => (c.body as { message: string }).message);
    return { model, end, posts };
  }

  test("a message sent while a run works is queued, not posted, and goes when the run ends", async () => {
    const { model, end, posts } = await running();
    expect(await model.send({ message: "and then the footer", agentId: "claude" })).toBe(true);
    expect(posts()).toEqual([]);
    expect(model.followUps.here.value.map((f) => [f.request.message, f.held])).toEqual([["and then the footer", false]]);
    end("succeeded");
    await until(() => posts().length === 1);
    expect(posts()).toEqual(["and then the footer"]);
    expect(model.followUps.here.value).toEqual([]);
  });

  test("stopping the run holds the queue until Send now", async () => {
    const { model, end, posts } = await running();
    await model.send({ message: "something else", agentId: "claude" });
    end("canceled");
    await Bun.sleep(10);
    expect(posts()).toEqual([]);
    const [held] = model.followUps.here.value;
    expect(held!.held).toBe(true);
    expect(await model.followUps.sendNow(held!.id)).toBe(true);
    expect(posts()).toEqual(["something else"]);
  });

  test("leaving the conversation holds its queue; back on it, the queue is still there", async () => {
    const { model, posts } = await running();
    await model.send({ message: "later", agentId: "claude" });
    await model.load("p1", "c2");
    expect(model.followUps.here.value).toEqual([]);
    await model.load("p1", "c1");
    expect(model.followUps.here.value.map((f) => [f.request.message, f.held])).toEqual([["later", true]]);
    expect(posts()).toEqual([]);
  });
});

describe("follow-ups kept across a reload", () => {
  test("the queue is kept in the page's storage and comes back held; an emptied queue leaves nothing behind", async () => {
    const kept = new Map<string, string>();
    const storage = { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v), removeItem: (k: string) => void kept.delete(k) };
    const { fetch } = fakeFetch({
      "GET /api/conversations/c1/messages": () => Response.json({ messages: [] }),
      "GET /api/runs": () => Response.json({ runs: [{ id: "r1" }] }),
    });
    const { stream, listeners } = recordingStream();
    const frames = manualScheduler();
    const before = createConversationModel({ api: createApi(fetch), stream, schedule: frames.schedule, storage });
    await before.load("p1", "c1");
    listeners.get("r1")!(runEvents("r1").start());
    frames.runFrame();
    await before.send({ message: "after the reload too", agentId: "claude" });
    before.dispose();

    const after = createConversationModel({ api: createApi(fetch), stream: recordingStream().stream, storage });
    await after.load("p1", "c1");
    expect(after.followUps.here.value.map((f) => [f.request.message, f.held])).toEqual([["after the reload too", true]]);
    after.followUps.remove(after.followUps.here.value[0]!.id);
    expect(kept.size).toBe(0);
  });
});
