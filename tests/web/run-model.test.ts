import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../../server/contracts/events.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { RunDraft } from "../../web/state/run-draft.ts";
import { foldRunEvent } from "../../web/state/run-fold.ts";
import { createRunModel, elapsedMs } from "../../web/state/run-model.ts";
import { emptyRunState, type RunState, type ToolItem } from "../../web/state/run-state.ts";
import { manualScheduler } from "../../web/state/scheduler.ts";
import { runEvents } from "../support/web-run-events.ts";

function fold(events: RunEvent[]): RunState {
  const draft = new RunDraft(emptyRunState("run-1"));
  for (const event of events) foldRunEvent(draft, event);
  return draft.snapshot();
}

describe("run fold", () => {
  test("a recorded claude write turn becomes a file tool card, answer text and usage", () => {
    const recorded = JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/claude/write.events.json"), "utf8")) as AgentEvent[];
    const e = runEvents();
    const state = fold([e.start(), ...recorded.map((event) => e.agent(event)), e.end({ files: ["hello.txt"] })]);
    const kinds = state.items.map((item) => item.kind);
    expect(kinds).toEqual(["tool", "text"]);
    const tool = state.items[0] as ToolItem;
    expect(tool).toMatchObject({ toolKind: "file_write", path: "hello.txt", state: "done", name: "Write" });
    expect(tool.result).toContain("File created successfully");
    expect(state.files).toEqual(["hello.txt"]);
    expect(state.usage).toMatchObject({ inputTokens: 20, outputTokens: 19, costUsd: 0.00046, stopReason: "end_turn" });
    expect(state.model).toBe("claude-opus-5-5");
    expect(state.end?.status).toBe("succeeded");
  });

  test("text deltas join into one text item until a tool interrupts; thinking folds into its own block", () => {
    const e = runEvents();
    const state = fold([
      e.start(),
      e.agent({ type: "thinking_start" }),
      e.agent({ type: "thinking_delta", delta: "Let me " }),
      e.agent({ type: "thinking_delta", delta: "think." }),
      e.agent({ type: "thinking_tokens", tokens: 42 }),
      e.agent({ type: "thinking_end" }),
      e.agent({ type: "text_delta", delta: "Hel" }),
      e.agent({ type: "text_delta", delta: "lo" }),
      e.agent({ type: "tool_input_delta", id: "t1", name: "Bash", delta: '{"command":' }),
      e.agent({ type: "tool_input_delta", id: "t1", name: "Bash", delta: '"ls"}' }),
      e.agent({ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" }, kind: "command" }),
      e.agent({ type: "tool_result", toolUseId: "t1", content: "a.txt", isError: true }),
      e.agent({ type: "text_delta", delta: "Done" }),
    ]);
    expect(state.items.map((item) => item.kind)).toEqual(["thinking", "text", "tool", "text"]);
    expect(state.items[0]).toMatchObject({ text: "Let me think.", open: false, tokens: 42 });
    expect(state.items[1]).toMatchObject({ text: "Hello" });
    expect(state.items[2]).toMatchObject({ id: "t1", toolKind: "command", inputDraft: '{"command":"ls"}', result: "a.txt", state: "error" });
    expect(state.items[3]).toMatchObject({ text: "Done" });
    expect(state.statusLabel).toBe("streaming");
  });

  test("a file tool changes the files when it is requested and again when its result is in (the write happens between)", () => {
    const e = runEvents();
    const draft = new RunDraft(emptyRunState("run-1"));
    const effects = [
      e.start(),
      e.agent({ type: "tool_use", id: "w", name: "Write", input: {}, kind: "file_write", path: "a.html" }),
      e.agent({ type: "tool_result", toolUseId: "w", content: "ok" }),
      e.agent({ type: "tool_use", id: "r", name: "Read", input: {}, kind: "file_read", path: "a.html" }),
      e.agent({ type: "tool_result", toolUseId: "r", content: "<h1>" }),
    ].map((event) => foldRunEvent(draft, event).filesChanged);
    expect(effects).toEqual([false, true, true, false, false]);
  });

  test("time to first token runs from the start to the first output of any kind, by the daemon's clock", () => {
    const e = runEvents();
    const derived = fold([e.start(), e.agent({ type: "text_delta", delta: "x" }, 250)]);
    expect(derived.ttftMs).toBe(250);
    expect(elapsedMs(derived, derived.startedAt! + 1234)).toBe(1234);
    // Issue #34: thinking and tool calls are output too; the agent's own time to visible text does not replace it.
    for (const first of [
      { type: "thinking_start" },
      { type: "thinking_delta", delta: "hm" },
      { type: "tool_input_delta", id: "t", name: "Bash", delta: "{" },
      { type: "tool_use", id: "t", name: "Bash", input: {}, kind: "command" },
    ] satisfies AgentEvent[]) {
      const f = runEvents();
      const state = fold([
        f.start(),
        f.agent({ type: "status", label: "initializing", model: "m" }, 500),
        f.agent(first, 700),
        f.agent({ type: "status", label: "streaming", ttftMs: 7400 }, 5000),
        f.agent({ type: "text_delta", delta: "x" }, 1000),
      ]);
      expect(state.ttftMs).toBe(1200);
    }
  });

  test("replaying the stream from id 0 after a reload folds nothing twice", () => {
    const e = runEvents();
    const events = [e.start(), e.agent({ type: "text_delta", delta: "a" }), e.agent({ type: "tool_use", id: "t", name: "Write", input: {}, kind: "file_write", path: "x.md" }), e.agent({ type: "text_delta", delta: "b" })];
    const once = fold(events);
    const replayed = fold([...events.slice(0, 3), ...events]);
    expect(replayed.items).toEqual(once.items);
    expect(replayed.lastEventId).toBe(3);
    expect(replayed.items.map((i) => i.kind)).toEqual(["text", "tool", "text"]);
  });

  test("a failed run carries the end banner data: reason, category, guidance and the login command", () => {
    const e = runEvents();
    const state = fold([
      e.start(),
      e.agent({ type: "tool_use", id: "t", name: "Bash", input: { command: "x" }, kind: "command" }),
      e.error("AGENT_AUTH_REQUIRED", "Not logged in"),
      e.end({ status: "failed", code: 1, reason: "Claude Code is not signed in.", failureCategory: "auth", guidance: "Sign in, then retry.", fixCommand: "claude /login" }),
    ]);
    expect(state.end).toMatchObject({ status: "failed", failureCategory: "auth", reason: "Claude Code is not signed in.", guidance: "Sign in, then retry.", fixCommand: "claude /login", exitCode: 1 });
    expect(state.items[1]).toMatchObject({ kind: "notice", level: "error", code: "AGENT_AUTH_REQUIRED" });
    expect((state.items[0] as ToolItem).state).toBe("interrupted"); // never left spinning, and not its own failure
    expect(state.statusLabel).toBe("failed");
  });

  // Issue #34: the agent's answer text, its error, the run's error and the banner all said the same sentence.
  test("a failed run's reason is shown once, in the end banner with its fix, not also as answer text and notices", () => {
    const recorded = JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/claude/auth-error.synthetic.events.json"), "utf8")) as AgentEvent[];
    const reason = "Invalid API key · Fix external API key";
    const e = runEvents();
    const state = fold([
      e.start(),
      e.agent({ type: "text_delta", delta: "Checking the files first." }),
      e.agent({ type: "tool_use", id: "t", name: "Bash", input: { command: "ls" }, kind: "command" }),
      ...recorded.map((event) => e.agent(event)),
      e.error("authentication_failed", reason),
      e.end({ status: "failed", code: 1, reason, failureCategory: "auth", guidance: "Sign in again.", fixCommand: "claude /login" }),
    ]);
    expect(state.items.map((item) => item.kind)).toEqual(["text", "tool"]);
    expect(state.items[0]).toMatchObject({ text: "Checking the files first." });
    expect(state.end).toMatchObject({ reason, guidance: "Sign in again.", fixCommand: "claude /login" });
  });

  test("artifacts and unparsed output are kept; todo snapshots keep their input", () => {
    const e = runEvents();
    const todos = { todos: [{ content: "write tests", status: "in_progress" }] };
    const state = fold([
      e.start(),
      e.agent({ type: "artifact", source: "plain-stream", name: "page.html", path: "page.html" }),
      e.agent({ type: "tool_use", id: "todo1", name: "TodoWrite", input: todos, kind: "todo" }),
      e.agent({ type: "raw", line: "??? unknown" }),
      e.stderr("warning: x\n"),
    ]);
    expect(state.files).toEqual(["page.html"]);
    expect(state.items[0]).toMatchObject({ kind: "tool", toolKind: "file_write", path: "page.html" });
    expect(state.items[1]).toMatchObject({ toolKind: "todo", input: todos });
    expect(state.output).toBe("??? unknown\nwarning: x\n");
  });

  test("unchanged items keep their identity across snapshots; published snapshots never change", () => {
    const e = runEvents();
    const draft = new RunDraft(emptyRunState("run-1"));
    foldRunEvent(draft, e.agent({ type: "tool_use", id: "t", name: "Read", input: {}, kind: "file_read" }));
    foldRunEvent(draft, e.agent({ type: "text_delta", delta: "a" }));
    const first = draft.snapshot();
    foldRunEvent(draft, e.agent({ type: "text_delta", delta: "b" }));
    const second = draft.snapshot();
    expect(second.items[0]).toBe(first.items[0]!);
    expect(first.items[1]).toMatchObject({ text: "a" });
    expect(second.items[1]).toMatchObject({ text: "ab" });
  });
});

describe("run model", () => {
  test("many deltas in one frame are folded by one flush and published once", () => {
    const frames = manualScheduler();
    const model = createRunModel({ runId: "run-1", schedule: frames.schedule });
    let publishes = 0;
    const stop = model.state.subscribe(() => publishes++);
    publishes = 0;
    const e = runEvents();
    model.receive(e.start());
    for (let i = 0; i < 500; i++) model.receive(e.agent({ type: "text_delta", delta: "x" }, 1));
    expect(frames.pending()).toBe(1);
    expect(model.state.value.items).toEqual([]); // nothing rendered before the frame
    expect(frames.runFrame()).toBe(1);
    expect(publishes).toBe(1);
    expect(model.state.value.items).toEqual([{ kind: "text", key: expect.any(String), text: "x".repeat(500) }]);
    stop();
  });

  test("subscribes through the injected stream, refreshes files and unsubscribes at the end", () => {
    const frames = manualScheduler();
    let listener: ((event: RunEvent) => void) | undefined;
    let unsubscribed = 0;
    let filesChanged = 0;
    let ended: RunState | undefined;
    const model = createRunModel({
      runId: "run-9",
      schedule: frames.schedule,
      stream: (runId, onEvent) => {
        expect(runId).toBe("run-9");
        listener = onEvent;
        return () => unsubscribed++;
      },
      onFilesChanged: () => filesChanged++,
      onEnd: (state) => (ended = state),
    });
    model.connect();
    const e = runEvents("run-9");
    listener!(e.start());
    listener!(e.agent({ type: "tool_use", id: "w", name: "Write", input: {}, kind: "file_write", path: "a.html" }));
    frames.runFrame();
    expect(filesChanged).toBe(1);
    expect(model.running.value).toBe(true);
    listener!(e.end({ files: ["a.html"] }));
    frames.runFrame();
    expect(model.running.value).toBe(false);
    expect(unsubscribed).toBe(1);
    expect(filesChanged).toBe(2);
    expect(ended?.end?.status).toBe("succeeded");
  });
});
