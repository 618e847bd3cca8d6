import { describe, expect, test } from "bun:test";
import { startDshProfileSession, type DshProfileOptions } from "../../../server/runtimes/protocols/dsh-profile/index.ts";
import { collect, READY, scriptedPipes, until } from "./dsh-profile-io.ts";

const R = "run-1";
const options = (extra: Partial<DshProfileOptions> = {}): DshProfileOptions => ({
  cwd: "/project",
  prompt: "make a page",
  model: "deepseek/deepseek-v4-pro",
  reasoning: "high",
  requestId: R,
  ...extra,
});

/** Runs the transport against frames given up front; returns events, result and what the host wrote. */
async function run(frames: Array<Record<string, unknown> | string>, extra: Partial<DshProfileOptions> = {}) {
  const pipes = scriptedPipes();
  for (const f of frames) typeof f === "string" ? pipes.raw(f) : pipes.frame(f);
  pipes.end();
  const session = startDshProfileSession(pipes.io, options(extra));
  const events = await collect(session.events);
  return { events, result: await session.result, written: pipes.written, session };
}

const session = (id = "od-s1", resumed = false) => ({ type: "session", request_id: R, session_id: id, resumed });
const result = (fields: Record<string, unknown> = {}) => ({ type: "result", request_id: R, status: "completed", session_id: "od-s1", resume_rejected: false, ...fields });

describe("dsh-profile transport: a good run", () => {
  test("maps frames to events and sends one execute after ready", async () => {
    const out = await run([
      READY,
      session(),
      { type: "thinking", request_id: R, content: "plan" },
      { type: "thinking", request_id: R, content: " more" },
      { type: "text", request_id: R, content: "Hi" },
      { type: "tool_call", request_id: R, call_id: "c1", name: "write_file", arguments: '{"path":"/project/index.html"}' },
      { type: "tool_call", request_id: R, call_id: "c2", name: "bash", arguments: "not json" },
      { type: "tool_result", request_id: R, call_id: "c1", name: "write_file", output: "ok", is_error: false },
      { type: "usage", request_id: R, provider: "deepseek", model: "v4", input_tokens: 10, output_tokens: 2, cache_read_tokens: 4 },
      { type: "text", request_id: "other-run", content: "not ours" },
      result(),
    ]);
    expect(out.written).toEqual([
      {
        v: 1,
        type: "execute",
        request_id: R,
        cwd: "/project",
        prompt: "make a page",
        model: { provider: "deepseek", id: "deepseek-v4-pro" },
        reasoning_effort: "high",
        mcp_servers: [],
      },
    ]);
    expect(out.events).toEqual([
      { type: "status", label: "initializing", detail: "open-design profile 0.1.0" },
      { type: "status", label: "working", sessionId: "od-s1" },
      { type: "thinking_start" },
      { type: "thinking_delta", delta: "plan" },
      { type: "thinking_delta", delta: " more" },
      { type: "thinking_end" },
      { type: "text_delta", delta: "Hi" },
      { type: "tool_use", id: "c1", name: "write_file", input: { path: "/project/index.html" }, kind: "file_write", path: "index.html" },
      { type: "tool_use", id: "c2", name: "bash", input: { raw: "not json" }, kind: "command" },
      { type: "tool_result", toolUseId: "c1", content: "ok", isError: false },
      {
        type: "usage",
        provider: "deepseek",
        model: "v4",
        usage: { input_tokens: 10, output_tokens: 2, cached_read_tokens: 4, total_tokens: 12 },
      },
    ]);
    expect(out.result).toEqual({ status: "completed", sessionId: "od-s1" });
    expect(out.session.ignoredFrames()).toBe(1);
  });

  test("resume sends the handle and accepts the same session back", async () => {
    const out = await run([READY, session("od-old", true), result({ session_id: "od-old" })], { resumeSessionId: "od-old", model: null, reasoning: null });
    expect(out.written[0]).toEqual({ v: 1, type: "execute", request_id: R, cwd: "/project", prompt: "make a page", resume_session_id: "od-old", mcp_servers: [] });
    expect(out.result).toEqual({ status: "completed", sessionId: "od-old" });
  });

  test("frames split across chunks at every byte still parse", async () => {
    const text = [READY, session(), { type: "text", request_id: R, content: "héllo ✓" }, result()].map((f) => `${JSON.stringify({ v: 1, ...f })}\n`).join("");
    const bytes = new TextEncoder().encode(text);
    const pipes = scriptedPipes();
    for (let i = 0; i < bytes.length; i += 3) pipes.raw(bytes.subarray(i, i + 3));
    pipes.end();
    const s = startDshProfileSession(pipes.io, options());
    const events = await collect(s.events);
    expect(events).toContainEqual({ type: "text_delta", delta: "héllo ✓" });
    expect((await s.result).status).toBe("completed");
  });
});

describe("dsh-profile transport: cancel", () => {
  test("cancel sends a cancel frame and a requested cancelled result ends the run as cancelled", async () => {
    const pipes = scriptedPipes();
    const s = startDshProfileSession(pipes.io, options());
    const events = collect(s.events);
    pipes.frame(READY);
    pipes.frame(session());
    await until(() => pipes.written.length === 1);
    await s.cancel();
    expect(pipes.written[1]).toEqual({ v: 1, type: "cancel", request_id: R });
    pipes.frame(result({ status: "cancelled" }));
    expect(await s.result).toEqual({ status: "cancelled", sessionId: "od-s1" });
    await events;
    await until(() => pipes.stdinEnded());
  });

  test("cancel before ready is latched: execute then cancel", async () => {
    const pipes = scriptedPipes();
    const s = startDshProfileSession(pipes.io, options());
    await s.cancel();
    expect(pipes.written).toEqual([]);
    pipes.frame(READY);
    await until(() => pipes.written.length === 2);
    expect(pipes.written.map((c) => c.type)).toEqual(["execute", "cancel"]);
    pipes.end();
    expect((await s.result).error?.code).toBe("DSH_PROFILE_MISSING_RESULT");
  });
});

describe("dsh-profile transport: every violation is a typed error", () => {
  const cases: Array<[string, Array<Record<string, unknown> | string>, string, Partial<DshProfileOptions>?]> = [
    ["a frame before ready", [session()], "DSH_PROFILE_PROTOCOL_ERROR"],
    ["a wrong protocol generation", [{ ...READY, protocol_version: 2 }], "DSH_PROFILE_INCOMPATIBLE"],
    ["a model that is not provider/model", [READY], "DSH_PROFILE_INVALID_MODEL", { model: "deepseek-v4-pro" }],
    ["content before session", [READY, { type: "text", request_id: R, content: "x" }], "DSH_PROFILE_PROTOCOL_ERROR"],
    ["a second session frame", [READY, session(), session()], "DSH_PROFILE_PROTOCOL_ERROR"],
    ["a session id change", [READY, session(), session("od-other")], "DSH_PROFILE_SESSION_MISMATCH"],
    ["a result for another session", [READY, session(), result({ session_id: "od-other" })], "DSH_PROFILE_SESSION_MISMATCH"],
    ["resumed on a new run", [READY, session("od-s1", true)], "DSH_PROFILE_PROTOCOL_ERROR"],
    ["resume answered with another id", [READY, session("od-new", true)], "DSH_PROFILE_RESUME_MISMATCH", { resumeSessionId: "od-old" }],
    ["resume answered as a new session", [READY, session("od-old", false)], "DSH_PROFILE_RESUME_MISMATCH", { resumeSessionId: "od-old" }],
    [
      "resume rejected",
      [READY, result({ status: "failed", session_id: "od-old", resume_rejected: true, error: { code: "DSH_PROFILE_RESUME_REJECTED", message: "unknown session" } })],
      "DSH_PROFILE_RESUME_REJECTED",
      { resumeSessionId: "od-old" },
    ],
    ["a cancelled result nobody asked for", [READY, session(), result({ status: "cancelled" })], "DSH_PROFILE_PROTOCOL_ERROR"],
    ["EOF without result", [READY, session(), { type: "text", request_id: R, content: "x" }], "DSH_PROFILE_MISSING_RESULT"],
    ["a non-JSON line", [READY, "oops\n"], "DSH_PROFILE_MALFORMED_FRAME"],
    ["a frame without v:1", [READY, `${JSON.stringify({ type: "text", request_id: R, content: "x" })}\n`], "DSH_PROFILE_INVALID_FRAME"],
    ["a failed result without error", [READY, session(), result({ status: "failed" })], "DSH_PROFILE_INVALID_FRAME"],
    ["a frame cut off at EOF", [READY, session(), '{"v":1,"type":"text","req'], "DSH_PROFILE_TRUNCATED_FRAME"],
    ["a frame over 1 MiB", [READY, session(), { type: "text", request_id: R, content: "x".repeat(1024 * 1024) }], "DSH_PROFILE_FRAME_TOO_LARGE"],
    ["the profile's protocol_error", [READY, { type: "protocol_error", request_id: R, code: "DSH_PROFILE_BUSY", message: "busy" }], "DSH_PROFILE_BUSY"],
    ["a foreign protocol_error code", [READY, { type: "protocol_error", code: "EWHATEVER", message: "?" }], "DSH_PROFILE_PROTOCOL_ERROR"],
    [
      "a failed turn",
      [READY, session(), result({ status: "failed", error: { code: "DSH_PROFILE_TURN_FAILED", message: "rate limited" } })],
      "DSH_PROFILE_TURN_FAILED",
    ],
  ];
  test.each(cases)("%s", async (_name, frames, code, extra) => {
    const out = await run(frames, extra);
    expect(out.result.status).toBe("failed");
    expect(out.result.error?.code).toBe(code);
    const last = out.events.at(-1);
    expect(last).toMatchObject({ type: "error", code, terminal: true });
    expect(out.events.filter((e) => e.type === "error")).toHaveLength(1);
  });

  test("resume rejected leaves no session handle, so the caller reseeds", async () => {
    const out = await run(
      [READY, result({ status: "failed", session_id: "od-old", resume_rejected: true, error: { code: "X", message: "gone" } })],
      { resumeSessionId: "od-old" },
    );
    expect(out.result).toEqual({ status: "failed", error: { code: "DSH_PROFILE_RESUME_REJECTED", message: "gone" } });
  });

  test("an unknown frame type passes through as raw", async () => {
    const out = await run([READY, session(), { type: "heartbeat", request_id: R }, result()]);
    expect(out.events).toContainEqual({ type: "raw", line: JSON.stringify({ v: 1, type: "heartbeat", request_id: R }) });
    expect(out.result.status).toBe("completed");
  });

  test("an open thinking block is closed before the terminal error", async () => {
    const out = await run([READY, session(), { type: "thinking", request_id: R, content: "x" }]);
    expect(out.events.slice(-2).map((e) => e.type)).toEqual(["thinking_end", "error"]);
  });
});
