import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentEvent } from "../../../server/contracts/events.ts";
import { changedSessionFile, loadPiImages, startPiRpcTransport } from "../../../server/runtimes/protocols/pi-rpc/index.ts";
import type { TransportOptions } from "../../../server/runtimes/protocols/types.ts";
import { runFake, type FakeRun } from "../../support/protocol-agents.ts";
import { poll } from "../../support/protocol-pipes.ts";
import { tempDir } from "../../support/temp.ts";

const runs: FakeRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.cleanup();
});

async function pi(script: Record<string, unknown>, overrides: Partial<TransportOptions> = {}): Promise<FakeRun> {
  const run = await runFake("pi-rpc-agent", script, startPiRpcTransport, overrides);
  runs.push(run);
  return run;
}

const ev = (event: Record<string, unknown>) => ({ event });
const msg = (assistantMessageEvent: Record<string, unknown>) => ev({ type: "message_update", assistantMessageEvent });
const ofType = <T extends AgentEvent["type"]>(events: AgentEvent[], type: T) => events.filter((e) => e.type === type) as Extract<AgentEvent, { type: T }>[];
const commands = (run: FakeRun, type: string) => run.ledger().filter((frame) => frame.type === type);

describe("pi rpc transport", () => {
  test("maps a whole run, auto-resolves extension UI, captures the session file, closes stdin at agent_end", async () => {
    const run = await pi({
      prompt: [
        ev({ type: "agent_start" }),
        ev({ type: "turn_start" }),
        { uiRequest: { id: "u1", method: "confirm", title: "Proceed?" } },
        { uiRequest: { id: "u2", method: "select", options: ["first", "second"] } },
        { uiRequest: { id: "u3", method: "input" } },
        { uiRequest: { method: "setStatus", text: "busy" } },
        msg({ type: "thinking_start" }),
        msg({ type: "thinking_delta", delta: "hmm" }),
        msg({ type: "thinking_end" }),
        ev({ type: "tool_execution_start", toolCallId: "c1", toolName: "write", args: { path: "a.html", content: "x" } }),
        ev({ type: "tool_execution_end", toolCallId: "c1", result: { content: [{ type: "text", text: "ok" }] }, isError: false }),
        msg({ type: "text_delta", delta: "Done." }),
        ev({ type: "compaction_start" }),
        ev({ type: "brand_new_event", x: 1 }),
        { raw: "garbage line\n" },
        ev({ type: "turn_end", message: { stopReason: "stop", usage: { input: 3, output: 4, cacheRead: 1, cacheWrite: 0, totalTokens: 8, cost: { total: 0.01 } } } }),
        { writeSessionFile: "2026_abc.jsonl" },
        ev({ type: "agent_end", messages: [] }),
      ],
    });
    const result = await run.session.result;
    const events = await run.done;
    for (const event of events) AgentEvent.parse(event);
    expect(result).toEqual({ status: "completed", sessionId: join(run.dir, ".pi", "sessions", "2026_abc.jsonl") });
    expect(ofType(events, "text_delta")).toEqual([{ type: "text_delta", delta: "Done." }]);
    expect(events.filter((e) => e.type.startsWith("thinking")).map((e) => e.type)).toEqual(["thinking_start", "thinking_delta", "thinking_end"]);
    expect(ofType(events, "tool_use")[0]).toMatchObject({ id: "c1", name: "write", kind: "file_write", path: "a.html" });
    expect(ofType(events, "tool_result")).toEqual([{ type: "tool_result", toolUseId: "c1", content: "ok" }]);
    expect(ofType(events, "usage")).toEqual([
      { type: "usage", usage: { input_tokens: 3, output_tokens: 4, cached_read_tokens: 1, cached_write_tokens: 0, total_tokens: 8 }, costUsd: 0.01, stopReason: "stop" },
    ]);
    expect(ofType(events, "status").map((e) => e.label)).toEqual(expect.arrayContaining(["working", "thinking", "compacting", "session"]));
    expect(ofType(events, "raw").length).toBe(2);
    const answers = commands(run, "extension_ui_response");
    expect(answers).toEqual([
      expect.objectContaining({ id: "u1", confirmed: true }),
      expect.objectContaining({ id: "u2", value: "first" }),
      expect.objectContaining({ id: "u3", cancelled: true }),
    ]);
    expect(commands(run, "prompt")[0]).toMatchObject({ message: "hello" });
    expect((await run.children[0]!.exited).code).toBe(0);
  });

  test("the session file is looked for on the machine pi runs on, not in this machine's copy of the path (issue #36)", async () => {
    // A container's project folder is not this machine's: the listing comes from the machine alone.
    const listings = [[], [{ path: "cwd-x/2026_there.jsonl", size: 10, mtimeMs: 1 }]];
    const asked: string[] = [];
    const machine = {
      listTree: async (dir: string) => {
        asked.push(dir);
        return listings.shift() ?? [];
      },
    };
    const run = await pi({ prompt: [ev({ type: "agent_start" }), msg({ type: "text_delta", delta: "hi" }), ev({ type: "agent_end", messages: [] })] }, { machine });
    const result = await run.session.result;
    expect(asked).toEqual([join(run.dir, ".pi", "sessions"), join(run.dir, ".pi", "sessions")]);
    expect(result).toEqual({ status: "completed", sessionId: join(run.dir, ".pi", "sessions", "cwd-x", "2026_there.jsonl") });
  });

  test("resume sends switch_session with the saved session file first (real pi loads its history); a refusal is PI_PARENT_SESSION_FAILED", async () => {
    const ok = await pi({}, { resumeSessionId: "/s/old.jsonl" });
    expect((await ok.session.result).status).toBe("completed");
    expect(ok.ledger().map((frame) => frame.type)).toEqual(["switch_session", "prompt"]);
    expect(commands(ok, "switch_session")[0]).toMatchObject({ sessionPath: "/s/old.jsonl" });

    const refused = await pi({ newSession: { success: false, error: "no such session" } }, { resumeSessionId: "/s/old.jsonl" });
    const result = await refused.session.result;
    expect(result.error?.code).toBe("PI_PARENT_SESSION_FAILED");
    expect(commands(refused, "prompt")).toHaveLength(0);
  });

  test("an error agent_end followed by auto-retry is not final", async () => {
    const errorTurn = ev({ type: "turn_end", message: { stopReason: "error", errorMessage: "429 Too Many Requests" } });
    const run = await pi({
      prompt: [
        ev({ type: "agent_start" }),
        errorTurn,
        ev({ type: "agent_end", messages: [] }),
        { sleep: 50 },
        ev({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: "429" }),
        ev({ type: "agent_start" }),
        msg({ type: "text_delta", delta: "second try" }),
        ev({ type: "turn_end", message: { stopReason: "stop" } }),
        ev({ type: "agent_end", messages: [] }),
        ev({ type: "auto_retry_end", success: true, attempt: 1 }),
      ],
    });
    expect((await run.session.result).status).toBe("completed");
    const events = await run.done;
    expect(ofType(events, "text_delta").map((e) => e.delta)).toEqual(["second try"]);
    expect(ofType(events, "status").some((e) => e.label === "retrying")).toBe(true);
  });

  test("an error agent_end without a retry fails after the grace; exhausted retries fail at once", async () => {
    const single = await pi(
      { prompt: [ev({ type: "agent_start" }), ev({ type: "turn_end", message: { stopReason: "error", errorMessage: "401 Unauthorized" } }), ev({ type: "agent_end", messages: [] })] },
      { env: { PI_AUTO_RETRY_GRACE_MS: "50" } },
    );
    expect((await single.session.result).error).toMatchObject({ code: "AGENT_EXECUTION_FAILED", message: "401 Unauthorized" });

    const exhausted = await pi({
      prompt: [
        ev({ type: "agent_start" }),
        ev({ type: "turn_end", message: { stopReason: "error", errorMessage: "503" } }),
        ev({ type: "auto_retry_end", success: false, finalError: "gave up: 503" }),
        { sleep: 5000 },
      ],
    });
    const result = await exhausted.session.result;
    expect(result.error?.message).toBe("gave up: 503");
    expect(ofType(await exhausted.done, "error").at(-1)).toMatchObject({ terminal: true });
  });

  test("cancel sends abort and ends cancelled once pi reports agent_end", async () => {
    const run = await pi({ prompt: [ev({ type: "agent_start" }), msg({ type: "text_delta", delta: "partial" }), { waitForAbort: true }] });
    await poll(() => run.events.some((e) => e.type === "text_delta"));
    await run.session.cancel();
    expect((await run.session.result).status).toBe("cancelled");
    expect(commands(run, "abort")).toHaveLength(1);
    expect((await run.children[0]!.exited).code).toBe(0);
  });

  test("pi crashing mid-turn fails the run", async () => {
    const run = await pi({ prompt: [ev({ type: "agent_start" }), { exit: 9 }] });
    expect((await run.session.result).error?.code).toBe("AGENT_PROTOCOL_CLOSED");
  });

  test("images go as base64; unsupported and unreadable ones are skipped with a warning", async () => {
    using dir = tempDir();
    const png = join(dir.path, "a.png");
    writeFileSync(png, new Uint8Array([137, 80, 78, 71]));
    const text = join(dir.path, "notes.txt");
    writeFileSync(text, "x");
    const run = await pi({}, { imagePaths: [png, text, join(dir.path, "missing.jpg")] });
    await run.session.result;
    expect(commands(run, "prompt")[0]?.images).toEqual([{ type: "image", data: "iVBORw==", mimeType: "image/png" }]);
    const warnings = ofType(await run.done, "status").filter((e) => e.label === "warning");
    expect(warnings).toHaveLength(2);
    const many = await loadPiImages(Array.from({ length: 12 }, () => png));
    expect(many.images).toHaveLength(10);
    expect(many.skipped).toHaveLength(2);
  });

  test("on a remote run the bytes come from this machine's copies, not from the paths where pi runs", async () => {
    using dir = tempDir();
    const local = join(dir.path, "shot.png");
    writeFileSync(local, new Uint8Array([137, 80, 78, 71, 1]));
    const run = await pi({}, { imagePaths: ["/remote/only/od-stage-x/images/1-shot.png"], localImagePaths: [local] });
    await run.session.result;
    expect(commands(run, "prompt")[0]?.images).toEqual([{ type: "image", data: "iVBORwE=", mimeType: "image/png" }]);
  });
});

describe("changedSessionFile", () => {
  const file = (name: string, mtimeMs = 1, size = 10) => ({ name, mtimeMs, size });
  test("the single new or changed .jsonl; none or several → null", () => {
    expect(changedSessionFile([file("a")], [file("a"), file("b")])).toBe("b");
    expect(changedSessionFile([file("a")], [file("a", 2)])).toBe("a");
    expect(changedSessionFile([file("a")], [file("a", 1, 11)])).toBe("a");
    expect(changedSessionFile([file("a")], [file("a")])).toBeNull();
    expect(changedSessionFile([], [file("a"), file("b")])).toBeNull();
  });
});
