// The run service end to end against fake CLIs (real processes): every run ends, streams replay exactly,
// cancel leaves nothing behind, failures are classified, sessions resume or reseed.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RunEvent } from "../../server/contracts/runs.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { toLoggedEvent } from "../../server/store/event-json.ts";
import { agentEvents, endOf, processesWithRunCookie, runHarness, type RunHarness } from "../support/fake-agents.ts";

const fixture = (cli: string, scenario: string) => join(import.meta.dir, "..", "fixtures", cli, `${scenario}.jsonl`);
const def = (id: string) => getAgentDef(id)! as RuntimeAgentDef;
const claudeSteps = (scenario: string) => [{ readLine: true }, { outFile: fixture("claude", scenario) }];

async function poll(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("happy path per stream format", () => {
  test.concurrent("claude-stream-json: prompt as one stream-json line, text streamed, session captured for resume", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: claudeSteps("text") });
    const { events, conversationId } = await h.run({ agentId: "claude", message: "Say hello" });
    for (const event of events) expect(RunEvent.safeParse(event).success).toBe(true);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]).toMatchObject({ type: "start", agentId: "claude", resume: "new", attemptIndex: 0 });
    const text = agentEvents(events).flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
    expect(text.length).toBeGreaterThan(0);
    expect(endOf(events)).toMatchObject({ status: "succeeded", code: 0 });
    const [start] = h.ledger();
    expect(start!.argv).toEqual(expect.arrayContaining(["-p", "--input-format", "stream-json", "--permission-mode", "bypassPermissions"]));
    const stdinLine = h.ledger().find((l) => l.event === "stdin-line")!.line as string;
    expect(JSON.parse(stdinLine)).toEqual({ type: "user", message: { role: "user", content: [{ type: "text", text: "Say hello" }] } });
    // specify-style: od minted the session id and passed it with --session-id
    const sessionId = start!.argv as string[];
    expect(sessionId).toContain("--session-id");
    expect(h.store.agentSessions.get(conversationId, "claude")).toBe(sessionId[sessionId.indexOf("--session-id") + 1]);
    // the assistant message was persisted in folded form
    const messages = h.store.messages.list(conversationId);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1]!.text).toBe(text);
    expect(messages[1]!.runStatus).toBe("succeeded");
  });

  test.concurrent("json-event-stream (opencode): prompt on stdin then EOF, sessionID captured", async () => {
    await using h = await runHarness({ defs: [def("opencode")], shims: { opencode: undefined }, steps: [{ readAll: true }, { outFile: fixture("opencode", "text") }] });
    const { events, conversationId } = await h.run({ agentId: "opencode", message: "hi there" });
    expect(endOf(events).status).toBe("succeeded");
    expect(h.ledger().find((l) => l.event === "stdin-all")!.text).toBe("hi there\n");
    expect(h.store.agentSessions.get(conversationId, "opencode")).toBe("<ses-1>"); // the recording's scrubbed sessionID
  });

  test.concurrent("plain (deepseek): prompt in argv, stdin is /dev/null, <artifact> blocks become project files", async () => {
    const html = `<artifact identifier="landing-page" type="text/html" title="Landing">\n<!doctype html><p>hi</p>\n</artifact>`;
    const steps = [...html.split("\n").map((out) => ({ out })), { readAll: true }];
    await using h = await runHarness({ defs: [def("deepseek")], shims: { deepseek: undefined }, steps });
    const { events } = await h.run({ agentId: "deepseek", message: "make a page" });
    const end = endOf(events);
    expect(end.status).toBe("succeeded");
    expect(end.files).toEqual(["landing-page.html"]);
    expect(readFileSync(join(h.projectDir, "landing-page.html"), "utf8")).toContain("<p>hi</p>");
    expect(agentEvents(events).filter((e) => e.type === "artifact")).toEqual([
      expect.objectContaining({ type: "artifact", name: "landing-page.html", path: "landing-page.html" }),
    ]);
    expect(h.ledger()[0]!.argv).toEqual(["exec", "--auto", "make a page"]);
    expect(h.ledger().find((l) => l.event === "stdin-all")!.text).toBe(""); // /dev/null: EOF at once
  });

  test.concurrent("copilot-stream-json: never -p, prompt on stdin", async () => {
    await using h = await runHarness({ defs: [def("copilot")], shims: { copilot: undefined }, steps: [{ readAll: true }, { outFile: fixture("copilot", "text") }] });
    const { events } = await h.run({ agentId: "copilot", message: "hello" });
    expect(endOf(events).status).toBe("succeeded");
    expect(h.ledger()[0]!.argv).not.toContain("-p");
  });

  test.concurrent("json-event-stream (codex exec --json, OD_CODEX_TRANSPORT=exec-json): thread id captured, stdin closed after the prompt", async () => {
    await using h = await runHarness({
      defs: [def("codex")],
      shims: { codex: undefined },
      steps: [{ readAll: true }, { outFile: fixture("codex", "write") }],
      env: { OD_CODEX_TRANSPORT: "exec-json" },
    });
    const { events, conversationId } = await h.run({ agentId: "codex", message: "write it" });
    expect(endOf(events).status).toBe("succeeded");
    expect(h.ledger()[0]!.argv).toEqual(expect.arrayContaining(["exec", "--json", "--skip-git-repo-check"]));
    expect(agentEvents(events).some((e) => e.type === "tool_use" && e.kind === "file_write")).toBe(true);
    expect(h.store.agentSessions.get(conversationId, "codex")).toBeTruthy();
  });

  test.concurrent("qoder-stream-json: -p with stream-json output, prompt on stdin", async () => {
    await using h = await runHarness({ defs: [def("qoder")], shims: { qodercli: undefined }, steps: [{ readAll: true }, { outFile: fixture("qoder", "text.synthetic") }] });
    const { events } = await h.run({ agentId: "qoder", message: "hello" });
    expect(endOf(events).status).toBe("succeeded");
    expect(h.ledger()[0]!.argv).toEqual(expect.arrayContaining(["-p", "--output-format", "stream-json", "--yolo"]));
    expect(agentEvents(events).some((e) => e.type === "text_delta")).toBe(true);
  });

  test.concurrent("an argv-only agent refuses an oversized prompt before spawning, with AGENT_PROMPT_TOO_LARGE", async () => {
    await using h = await runHarness({ defs: [def("deepseek")], shims: { deepseek: undefined }, steps: [] });
    const { events } = await h.run({ agentId: "deepseek", message: "x".repeat(150_000) });
    const end = endOf(events);
    expect(end).toMatchObject({ status: "failed", failureCategory: "config", failureDetail: "prompt_too_large" });
    expect(events.find((e) => e.type === "error")).toMatchObject({ error: { code: "AGENT_PROMPT_TOO_LARGE" } });
    expect(h.ledger()).toEqual([]); // never spawned
  });

  test.concurrent("files written by the agent are reported on end, relative to the project", async () => {
    await using h = await runHarness({
      defs: [def("claude")],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { writeFile: { path: "site/index.html", content: "<h1>x</h1>" } }, { outFile: fixture("claude", "text") }],
    });
    const { events } = await h.run({ agentId: "claude", message: "write" });
    expect(endOf(events).files).toEqual(["site/index.html"]);
  });
});

describe("replay", () => {
  test.concurrent("a reader that reconnects after N events gets exactly the rest", async () => {
    await using h = await runHarness({
      defs: [def("claude")],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { outFile: fixture("claude", "long") }],
    });
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "long" });
    const first: RunEvent[] = [];
    for await (const event of h.service.events(created.runId)) {
      first.push(event);
      if (first.length === 7) break;
    }
    const rest: RunEvent[] = [];
    for await (const event of h.service.events(created.runId, first.at(-1)!.id)) rest.push(event);
    const all = [...first, ...rest];
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i + 1));
    expect(all.at(-1)!.type).toBe("end");
  });

  test.concurrent("after a daemon restart a finished run replays from sqlite, and an interrupted one is failed with daemon_restart", async () => {
    const { tempDir } = await import("../support/temp.ts");
    using data = tempDir("od-restart-");
    let finishedRunId: string;
    let interruptedRunId: string;
    {
      await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: claudeSteps("text"), dataDir: data.path });
      const done = await h.run({ agentId: "claude", message: "one" });
      finishedRunId = done.runId;
      // A run the daemon "died" during: a row left running, as a crash would leave it.
      interruptedRunId = "run_interrupted";
      h.store.runs.create({ id: interruptedRunId, projectId: h.projectId, conversationId: done.conversationId, agentId: "claude", model: null, reasoning: null });
      h.store.runs.markRunning(interruptedRunId, 999_999);
      h.store.runs.appendEvents(interruptedRunId, [toLoggedEvent({ id: 1, ts: 1, type: "diagnostic", kind: "x", message: "before the crash" })]);
    }
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, dataDir: data.path });
    expect(h.service.recoverInterruptedRuns()).toBe(1);
    const replayed: RunEvent[] = [];
    for await (const event of h.service.events(finishedRunId)) replayed.push(event);
    expect(replayed.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
    const partial: RunEvent[] = [];
    for await (const event of h.service.events(finishedRunId, 3)) partial.push(event);
    expect(partial.map((e) => e.id)).toEqual(replayed.slice(3).map((e) => e.id));
    const interrupted: RunEvent[] = [];
    for await (const event of h.service.events(interruptedRunId)) interrupted.push(event);
    expect(interrupted.map((e) => e.id)).toEqual([1, 2]); // ids continue across the restart
    expect(interrupted[1]).toMatchObject({ type: "end", status: "failed", failureDetail: "daemon_restart" });
    expect(h.service.get(interruptedRunId)!.status).toBe("failed");
  });
});

describe("a run's records", () => {
  test.concurrent("are written together: a run that fails part-way through them leaves no conversation, run or message", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: claudeSteps("text") });
    const add = h.store.messages.add.bind(h.store.messages);
    let added = 0;
    h.store.messages.add = (message) => {
      if (++added === 2) throw new Error("disk full");
      return add(message);
    };
    const failed = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "hi" }).catch((error: Error) => error);
    expect((failed as Error).message).toBe("disk full");
    expect(h.store.conversations.listForProject(h.projectId)).toEqual([]);
    expect(h.store.runs.list({ projectId: h.projectId })).toEqual([]);

    // The next run of the project writes all of them.
    h.store.messages.add = add;
    const { conversationId, events } = await h.run({ agentId: "claude", message: "again" });
    expect(endOf(events).status).toBe("succeeded");
    expect(h.store.messages.list(conversationId).map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});

describe("after a run", () => {
  test.concurrent("the settled hook runs once per run, after its end and its answer are stored", async () => {
    const seen: { status?: string; answer?: string }[] = [];
    let latest = "";
    await using h = await runHarness({
      defs: [def("claude")],
      shims: { claude: undefined },
      steps: claudeSteps("text"),
      afterRun: () => {
        const run = h.service.get(latest);
        const answer = h.store.messages.list(run!.conversationId).find((m) => m.role === "assistant");
        seen.push({ status: run?.status, answer: answer?.text });
      },
    });
    for (const message of ["one", "two"]) {
      const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message });
      latest = created.runId;
      for await (const _ of h.service.events(created.runId)) void _;
      await poll(() => seen.length === (message === "one" ? 1 : 2));
    }
    expect(seen.map((s) => s.status)).toEqual(["succeeded", "succeeded"]);
    for (const s of seen) expect(s.answer).toBeTruthy();
  });
});

describe("runs of other od processes", () => {
  test.concurrent("a run whose od process died (a killed `od run`) is ended on the next turn; one whose owner lives blocks it", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: claudeSteps("text") });
    const first = await h.run({ agentId: "claude", message: "one" });
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    h.store.runs.create({ id: "run_orphaned", projectId: h.projectId, conversationId: first.conversationId, agentId: "claude", model: null, reasoning: null });
    h.store.db.prepare("UPDATE runs SET owner_pid = ?, status = 'running' WHERE id = ?").run(dead.pid, "run_orphaned");
    const second = await h.run({ agentId: "claude", message: "two", conversationId: first.conversationId });
    expect(endOf(second.events).status).toBe("succeeded");
    expect(h.service.get("run_orphaned")).toMatchObject({ status: "failed", failureDetail: "daemon_restart" });

    const alive = Bun.spawn(["sleep", "30"]);
    try {
      h.store.runs.create({ id: "run_elsewhere", projectId: h.projectId, conversationId: first.conversationId, agentId: "claude", model: null, reasoning: null });
      h.store.db.prepare("UPDATE runs SET owner_pid = ?, status = 'running' WHERE id = ?").run(alive.pid, "run_elsewhere");
      const blocked = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "three", conversationId: first.conversationId }).catch((e) => e);
      expect(blocked.code).toBe("RUN_IN_PROGRESS");
      expect(h.service.get("run_elsewhere")!.status).toBe("running");
    } finally {
      alive.kill();
    }
  });
});

describe("ending", () => {
  test.concurrent("cancel of a CLI whose grandchild ignores SIGTERM leaves no process of the run", async () => {
    await using h = await runHarness({
      defs: [def("claude")],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { orphan: "holdStdout" }, { ignoreTerm: true }, { out: '{"type":"system","subtype":"init","session_id":"s1"}' }, { hang: true }],
      timeouts: { cancelGraceMs: 300 },
    });
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    await poll(() => h.ledger().some((l) => l.event === "orphan"));
    // The orphan is logged once spawned; its environment reads empty until its exec has mapped it.
    await poll(() => processesWithRunCookie(created.runId).length >= 2);
    const started = Date.now();
    expect(await h.service.cancel(created.runId)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    const events: RunEvent[] = [];
    for await (const event of h.service.events(created.runId)) events.push(event);
    expect(endOf(events)).toMatchObject({ status: "canceled", failureCategory: "cancel" });
    expect(processesWithRunCookie(created.runId)).toEqual([]);
  });

  test.concurrent("an agent that exits 0 and leaves a grandchild holding stdout still ends, and the grandchild is swept", async () => {
    await using h = await runHarness({
      defs: [def("claude")],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { outFile: fixture("claude", "text") }, { orphan: "holdStdout" }],
      timeouts: { cancelGraceMs: 300 },
    });
    const { events, runId } = await h.run({ agentId: "claude", message: "hi" });
    expect(endOf(events).status).toBe("succeeded");
    expect(processesWithRunCookie(runId)).toEqual([]);
  });

  test.concurrent("exit 0 with no output → failed / empty_output", async () => {
    await using h = await runHarness({ defs: [def("opencode")], shims: { opencode: undefined }, steps: [{ readAll: true }] });
    const { events } = await h.run({ agentId: "opencode", message: "hi" });
    expect(endOf(events)).toMatchObject({ status: "failed", failureDetail: "empty_output", code: 0 });
  });

  test.concurrent("a crash mid-stream → failed with the signal", async () => {
    await using h = await runHarness({
      defs: [def("opencode")],
      shims: { opencode: undefined },
      steps: [{ readAll: true }, { out: '{"type":"text","sessionID":"ses_1","part":{"type":"text","text":"partial"}}' }, { crash: true }],
    });
    const { events } = await h.run({ agentId: "opencode", message: "hi" });
    const end = endOf(events);
    expect(end.status).toBe("failed");
    expect(end.signal).toBe("SIGKILL");
    expect(end.failureCategory).toBe("crash");
  });

  test.concurrent("first-output timeout", async () => {
    await using h = await runHarness({
      defs: [def("opencode")],
      shims: { opencode: undefined },
      steps: [{ readAll: true }, { hang: true }],
      timeouts: { firstOutputMs: () => 300, inactivityMs: () => 60_000, cancelGraceMs: 200 },
    });
    const { events, runId } = await h.run({ agentId: "opencode", message: "hi" });
    expect(endOf(events)).toMatchObject({ status: "failed", failureCategory: "timeout", failureDetail: "first_output_timeout" });
    expect(processesWithRunCookie(runId)).toEqual([]);
  });

  test.concurrent("inactivity timeout after some output", async () => {
    await using h = await runHarness({
      defs: [def("opencode")],
      shims: { opencode: undefined },
      steps: [{ readAll: true }, { out: '{"type":"text","sessionID":"ses_1","part":{"type":"text","text":"thinking about it"}}' }, { hang: true }],
      timeouts: { firstOutputMs: () => 60_000, inactivityMs: () => 400, cancelGraceMs: 200 },
    });
    const { events } = await h.run({ agentId: "opencode", message: "hi" });
    expect(endOf(events)).toMatchObject({ status: "failed", failureCategory: "timeout", failureDetail: "inactivity_timeout" });
  });

  test.concurrent("a recorded 401 is classified as auth with the agent's login command", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: [...claudeSteps("error"), { exit: 1 }] });
    const { events } = await h.run({ agentId: "claude", message: "hi" });
    const end = endOf(events);
    expect(end).toMatchObject({ status: "failed", failureCategory: "auth", fixCommand: "claude auth login" });
    expect(events.some((e) => e.type === "error")).toBe(true);
  });

  test.concurrent('"exit code 401" in stderr is not an auth failure', async () => {
    await using h = await runHarness({
      defs: [def("opencode")],
      shims: { opencode: undefined },
      steps: [{ readAll: true }, { out: '{"type":"text","sessionID":"ses_1","part":{"type":"text","text":"ran it"}}' }, { err: "tool failed with exit code 401" }, { exit: 3 }],
    });
    const { events } = await h.run({ agentId: "opencode", message: "hi" });
    expect(endOf(events).failureCategory).not.toBe("auth");
  });

  test.concurrent("a missing executable fails observably as not installed", async () => {
    await using h = await runHarness({ defs: [def("codebuddy")], shims: {} });
    const { events } = await h.run({ agentId: "codebuddy", message: "hi" });
    expect(endOf(events)).toMatchObject({ status: "failed", failureCategory: "config", failureDetail: "cli_not_installed" });
  });
});

describe("a bug of ours", () => {
  // Each throws where only a bug of od's (or a store that fails in a way it does not handle) could: the run must
  // still end, observably, with its record and its message ended too (a message left open reads as still running).
  const answerOf = (h: RunHarness, conversationId: string) => h.store.messages.list(conversationId).find((m) => m.role === "assistant")!;

  test.concurrent("before the run's end: it ends failed (internal_error), and so do its record and its message", async () => {
    const boom = async (): Promise<never> => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      throw new Error("boom");
    };
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: claudeSteps("text"), inputs: { prepare: boom, prepareRemote: boom } });
    const { runId, conversationId, events } = await h.run({ agentId: "claude", message: "hi" });
    expect(events.find((e) => e.type === "error")).toMatchObject({ error: { code: "INTERNAL" } });
    expect(endOf(events)).toMatchObject({ status: "failed", failureCategory: "crash", failureDetail: "internal_error" });
    // Its duration is the run's, from its creation (it never started an agent): at least the 30 ms it was prepared.
    expect(endOf(events).durationMs).toBeGreaterThanOrEqual(25);
    expect(endOf(events).durationMs).toBeLessThanOrEqual(endOf(events).ts - h.store.runs.get(runId)!.createdAt);
    await h.service.wait(runId);
    expect(h.store.runs.get(runId)).toMatchObject({ status: "failed", failureDetail: "internal_error", endedAt: expect.any(Number) });
    expect(answerOf(h, conversationId)).toMatchObject({ runStatus: "failed", endedAt: expect.any(Number) });
  });

  test.concurrent("after the run's end is logged: its message still ends, with what the run streamed", async () => {
    await using h = await runHarness({
      defs: [def("claude")],
      shims: { claude: undefined },
      steps: claudeSteps("text"),
      // Every end collects first (as after much text), and that collection throws.
      loggedText: { count: () => undefined, chars: Number.POSITIVE_INFINITY, reset: () => undefined },
      collectGarbage: () => {
        throw new Error("boom");
      },
    });
    const { runId, conversationId, events } = await h.run({ agentId: "claude", message: "hi" });
    expect(endOf(events).status).toBe("succeeded");
    await h.service.wait(runId);
    const streamed = agentEvents(events).flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
    expect(streamed.length).toBeGreaterThan(0);
    expect(answerOf(h, conversationId)).toMatchObject({ text: streamed, runStatus: "succeeded", endedAt: expect.any(Number) });
  });

  test.concurrent("when its record could not be written: the record says what its end said, and its message ends", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: claudeSteps("text") });
    const finish = h.store.runs.finish.bind(h.store.runs);
    let refused = 0;
    h.store.runs.finish = (...args) => {
      if (!refused++) throw new Error("database is locked");
      finish(...args);
    };
    const { runId, conversationId, events } = await h.run({ agentId: "claude", message: "hi" });
    expect(endOf(events).status).toBe("succeeded");
    await h.service.wait(runId);
    expect(refused).toBe(2);
    expect(h.store.runs.get(runId)).toMatchObject({ status: "succeeded", endedAt: expect.any(Number) });
    expect(answerOf(h, conversationId)).toMatchObject({ runStatus: "succeeded", endedAt: expect.any(Number) });
  });
});

describe("resume", () => {
  test.concurrent("specify-style (claude): the second turn resumes the minted session and sends only the new message", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: claudeSteps("text") });
    const first = await h.run({ agentId: "claude", message: "first message" });
    const minted = h.store.agentSessions.get(first.conversationId, "claude")!;
    // The agent remembers the conversation itself: its turns are never read for a transcript.
    const transcript = h.store.messages.transcript.bind(h.store.messages);
    let transcriptReads = 0;
    h.store.messages.transcript = (...args) => (transcriptReads++, transcript(...args));
    const second = await h.run({ agentId: "claude", message: "second message", conversationId: first.conversationId });
    expect(second.events[0]).toMatchObject({ type: "start", resume: "native" });
    expect(transcriptReads).toBe(0);
    const starts = h.ledger().filter((l) => l.event === "start");
    expect(starts[1]!.argv).toEqual(expect.arrayContaining(["--resume", minted]));
    const lines = h.ledger().filter((l) => l.event === "stdin-line").map((l) => JSON.parse(l.line as string).message.content[0].text);
    expect(lines).toEqual(["first message", "second message"]);
  });

  test.concurrent("capture-style (opencode): the id from the stream is passed back with -s", async () => {
    await using h = await runHarness({ defs: [def("opencode")], shims: { opencode: undefined }, steps: [{ readAll: true }, { outFile: fixture("opencode", "text") }] });
    const first = await h.run({ agentId: "opencode", message: "one" });
    const captured = h.store.agentSessions.get(first.conversationId, "opencode")!;
    expect(captured).toBeTruthy();
    await h.run({ agentId: "opencode", message: "two", conversationId: first.conversationId });
    const starts = h.ledger().filter((l) => l.event === "start");
    expect(starts[0]!.argv).not.toContain("-s");
    expect(starts[1]!.argv).toEqual(expect.arrayContaining(["-s", captured]));
  });

  test.concurrent("a stale session is cleared and the same turn reseeded once with the full transcript", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: claudeSteps("text") });
    const first = await h.run({ agentId: "claude", message: "remember the word banana" });
    h.store.agentSessions.set(first.conversationId, "claude", "expired-session");
    // The CLI rejects the stored session the first time, then answers normally. The rejecting run writes the next
    // run's script itself before it exits: set from here, the retry could start before the file changed.
    const scriptPath = h.env.FAKE_CLI_SCRIPT!.slice(1);
    h.script([
      { readLine: true },
      { err: "No conversation found with session ID: expired-session" },
      { out: '{"type":"result","subtype":"error_during_execution","is_error":true,"session_id":"x","errors":["No conversation found with session ID: expired-session"]}' },
      { writeFile: { path: scriptPath, content: JSON.stringify(claudeSteps("text")) } },
      { exit: 1 },
    ]);
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "what was the word?", conversationId: first.conversationId });
    const events: RunEvent[] = [];
    for await (const event of h.service.events(created.runId)) events.push(event);
    const starts = events.filter((e) => e.type === "start");
    expect(starts.map((s) => (s.type === "start" ? [s.attemptIndex, s.resume] : []))).toEqual([
      [0, "native"],
      [1, "transcript"],
    ]);
    expect(events.some((e) => e.type === "diagnostic" && e.kind === "session_reseed")).toBe(true);
    expect(endOf(events).status).toBe("succeeded");
    const lastPrompt = JSON.parse(h.ledger().filter((l) => l.event === "stdin-line").at(-1)!.line as string).message.content[0].text;
    expect(lastPrompt).toContain("remember the word banana");
    expect(lastPrompt).toContain("what was the word?");
    expect(h.store.agentSessions.get(first.conversationId, "claude")).not.toBe("expired-session");
  });
});

describe("input and concurrency", () => {
  test.concurrent("mid-turn input reaches a stream-json CLI while its turn runs", async () => {
    await using h = await runHarness({
      defs: [def("claude")],
      shims: { claude: undefined },
      steps: [
        { readLine: true },
        { out: '{"type":"system","subtype":"init","session_id":"s1","model":"m"}' },
        { out: '{"type":"assistant","message":{"id":"m0","role":"assistant","content":[{"type":"text","text":"working…"}]},"session_id":"s1"}' },
        { readLine: true },
        { echoInput: true },
        { out: '{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"s1","usage":{"input_tokens":1,"output_tokens":1}}' },
      ],
    });
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "start" });
    const events: RunEvent[] = [];
    for await (const event of h.service.events(created.runId)) {
      events.push(event);
      if (event.type === "agent" && event.event.type === "text_delta" && event.event.delta.includes("working")) {
        await h.service.input(created.runId, "also add a footer");
      }
    }
    const text = agentEvents(events).flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
    expect(text).toContain("echo: also add a footer");
    expect(endOf(events).status).toBe("succeeded");
  });

  test("20 concurrent runs each streaming 10k events are all delivered in order", async () => {
    await using h = await runHarness({
      defs: [def("opencode")],
      shims: { opencode: undefined },
      steps: [{ readAll: true }, { repeat: 10_000, out: '{"type":"text","sessionID":"ses_1","part":{"type":"text","text":"t{{i}} "}}' }],
    });
    const project = h.projectId;
    const runs = await Promise.all(Array.from({ length: 20 }, () => h.service.create({ projectId: project, agentId: "opencode", message: "go" })));
    const results = await Promise.all(
      runs.map(async ({ runId }) => {
        const deltas: string[] = [];
        let lastId = 0;
        let ordered = true;
        for await (const event of h.service.events(runId)) {
          if (event.id !== lastId + 1) ordered = false;
          lastId = event.id;
          if (event.type === "agent" && event.event.type === "text_delta") deltas.push(event.event.delta);
        }
        return { ordered, deltas };
      }),
    );
    for (const { ordered, deltas } of results) {
      expect(ordered).toBe(true);
      expect(deltas.length).toBe(10_000);
      expect(deltas[0]).toBe("t0 ");
      expect(deltas.at(-1)).toBe("t9999 ");
    }
  }, 120_000);
});

describe("request validation", () => {
  test.concurrent("unknown agent, unavailable agent, unknown reasoning, unknown project → typed errors; nothing spawned", async () => {
    await using h = await runHarness({ defs: [def("claude"), def("kilo")], shims: {} });
    const attempt = (body: Record<string, unknown>) =>
      h.service.create({ projectId: h.projectId, message: "x", ...body } as never).then(
        () => "created",
        (e) => `${e.kind} ${e.code}`,
      );
    expect(await attempt({ agentId: "nope" })).toBe("invalid UNKNOWN_AGENT");
    expect(await attempt({ agentId: "claude", reasoning: "galaxy-brain" })).toBe("invalid UNKNOWN_REASONING");
    expect(await attempt({ agentId: "kilo", model: "not-a-kilo-model" })).toBe("invalid UNKNOWN_MODEL");
    expect(await attempt({ agentId: "claude", projectId: "prj_missing" })).toBe("not_found PROJECT_NOT_FOUND");
    expect(existsSync(h.ledgerPath)).toBe(false);
  });
});
