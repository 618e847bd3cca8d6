import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PLUGIN_VERSION } from "../../server/dsh-runtime/src/index.mjs";
import { createFakeHarness } from "../fakes/dsh/harness.ts";
import { driveStartup, execute, type Frame } from "./harness-driver.ts";

const withoutSession = (frames: Frame[]) => frames.map(({ session_id: _s, ...rest }) => rest);

describe("startup modes", () => {
  test.each([[[]], [["--probe", "--stdio"]], [["--probe", "--bogus"]]])("argv %j is a usage error", async (argv) => {
    const run = driveStartup(argv);
    expect(await run.exit).toBe(2);
    expect(run.frames).toEqual([]);
    expect(run.stderr()).toContain("usage:");
  });

  test("--probe writes one probe frame", async () => {
    const run = driveStartup(["--probe"]);
    expect(await run.exit).toBe(0);
    expect(run.frames).toEqual([
      {
        v: 1,
        type: "probe",
        runtime: "open-design",
        protocol_version: 1,
        plugin_version: "0.1.0",
        compatibility_generation: "od-dsh-profile:1",
        capabilities: { session_resume: true, session_cancel: true, structured_events: true },
      },
    ]);
  });

  test("--models writes the harness models", async () => {
    const models = [{ provider: "p", provider_name: "P", id: "m", name: "M", reasoning_options: ["high"] }];
    const run = driveStartup(["--models"], { script: { models } });
    expect(await run.exit).toBe(0);
    expect(run.frames).toEqual([{ v: 1, type: "models", runtime: "open-design", models }]);
  });

  test("--models failure is a protocol_error and exit 1", async () => {
    const run = driveStartup(["--models"], { script: { modelsError: "no providers" } });
    expect(await run.exit).toBe(1);
    expect(run.frames).toEqual([{ v: 1, type: "protocol_error", code: "DSH_PROFILE_MODELS_FAILED", message: "no providers" }]);
  });

  test("plugin version matches package.json", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dir, "../../server/dsh-runtime/package.json"), "utf8")) as { version: string };
    expect(PLUGIN_VERSION).toBe(pkg.version);
  });
});

describe("--stdio", () => {
  test("a new run: ready, session, content frames, result", async () => {
    const run = driveStartup(["--stdio"], {
      script: {
        steps: [
          { thinking: "hmm" },
          { tool_call: { id: "c1", name: "write_file", arguments: { path: "a.txt" } } },
          { tool_result: { id: "c1", name: "write_file", output: "ok" } },
          { text: "done {{prompt}}" },
          { message: { usage: { provider: "deepseek", model: "m", inputTokens: 3, outputTokens: 4 } } },
          { end: "completed" },
        ],
      },
    });
    run.send(execute());
    expect(await run.exit).toBe(0);
    const sessionId = run.frames[1]?.session_id;
    expect(sessionId).toMatch(/^od-[0-9a-f-]{36}$/);
    expect(run.frames.map((f) => f.type)).toEqual(["ready", "session", "thinking", "tool_call", "tool_result", "text", "usage", "result"]);
    expect(withoutSession(run.frames.slice(1))).toEqual([
      { v: 1, type: "session", request_id: "run-1", resumed: false },
      { v: 1, type: "thinking", request_id: "run-1", content: "hmm" },
      { v: 1, type: "tool_call", request_id: "run-1", call_id: "c1", name: "write_file", arguments: '{"path":"a.txt"}' },
      { v: 1, type: "tool_result", request_id: "run-1", call_id: "c1", name: "write_file", output: "ok", is_error: false },
      { v: 1, type: "text", request_id: "run-1", content: "done hello" },
      { v: 1, type: "usage", request_id: "run-1", provider: "deepseek", model: "m", input_tokens: 3, output_tokens: 4 },
      { v: 1, type: "result", request_id: "run-1", status: "completed", stop_reason: "completed", resume_rejected: false, output: "done hello" },
    ]);
    expect(run.frames.at(-1)?.session_id).toBe(sessionId);
  });

  test("resume continues the same session", async () => {
    const harness = createFakeHarness({ steps: [{ text: "turn {{turn}}" }, { end: "completed" }] });
    const first = driveStartup(["--stdio"], { harness });
    first.send(execute());
    await first.exit;
    const sessionId = first.frames[1]?.session_id as string;
    const second = driveStartup(["--stdio"], { harness });
    second.send(execute({ request_id: "run-2", resume_session_id: sessionId }));
    expect(await second.exit).toBe(0);
    expect(second.frames[1]).toEqual({ v: 1, type: "session", request_id: "run-2", session_id: sessionId, resumed: true });
    expect(second.frames.find((f) => f.type === "text")?.content).toBe("turn 2");
  });

  test("an unknown resume id is answered with resume_rejected", async () => {
    const run = driveStartup(["--stdio"]);
    run.send(execute({ resume_session_id: "od-gone" }));
    expect(await run.exit).toBe(1);
    expect(run.frames.at(-1)).toEqual({
      v: 1,
      type: "result",
      request_id: "run-1",
      status: "failed",
      session_id: "od-gone",
      resume_rejected: true,
      error: { code: "DSH_PROFILE_RESUME_REJECTED", message: "unknown session od-gone" },
    });
  });

  test("a session that cannot be created fails the run", async () => {
    const run = driveStartup(["--stdio"], { script: { failCreate: "no provider configured" } });
    run.send(execute());
    expect(await run.exit).toBe(1);
    expect(run.frames.map((f) => f.type)).toEqual(["ready", "result"]);
    expect(run.frames[1]?.error).toEqual({ code: "DSH_PROFILE_SESSION_CREATE_FAILED", message: "no provider configured" });
    expect(run.frames[1]?.resume_rejected).toBe(false);
  });

  test("cancel aborts the turn and the result is cancelled", async () => {
    const run = driveStartup(["--stdio"], { script: { steps: [{ text: "working" }, { wait_for_cancel: true }, { text: "never" }] } });
    run.send(execute());
    await run.waitFor((f) => f.type === "text");
    run.send({ v: 1, type: "cancel", request_id: "other-run" });
    run.send({ v: 1, type: "cancel", request_id: "run-1" });
    expect(await run.exit).toBe(0);
    expect(run.frames.at(-1)).toMatchObject({ type: "result", status: "cancelled", stop_reason: "aborted" });
    expect(run.frames.some((f) => f.content === "never")).toBe(false);
  });

  test("a cancel sent before its execute is latched", async () => {
    const run = driveStartup(["--stdio"], { script: { steps: [{ wait_for_cancel: true }] } });
    run.send({ v: 1, type: "cancel", request_id: "run-1" });
    run.send(execute());
    expect(await run.exit).toBe(0);
    expect(run.frames.at(-1)).toMatchObject({ type: "result", status: "cancelled" });
  });

  test("a second execute is refused as busy; a bad command is invalid", async () => {
    const run = driveStartup(["--stdio"], { script: { steps: [{ wait_for_cancel: true }] } });
    run.send(execute());
    await run.waitFor((f) => f.type === "session");
    run.send(execute({ request_id: "run-2" }));
    run.send("{not json");
    run.send({ v: 1, type: "execute", request_id: "run-3" });
    await run.waitFor((f) => f.request_id === "run-3");
    run.send({ v: 1, type: "cancel", request_id: "run-1" });
    await run.exit;
    const errors = run.frames.filter((f) => f.type === "protocol_error");
    expect(errors).toEqual([
      { v: 1, type: "protocol_error", request_id: "run-2", code: "DSH_PROFILE_BUSY", message: "this process already accepted an execute" },
      { v: 1, type: "protocol_error", code: "DSH_PROFILE_INVALID_COMMAND", message: "command is not JSON" },
      { v: 1, type: "protocol_error", request_id: "run-3", code: "DSH_PROFILE_INVALID_COMMAND", message: "execute.cwd must be a non-empty string" },
    ]);
  });

  test.each([
    [{ steps: [{ text: "x" }] }, "DSH_PROFILE_MISSING_TURN_END"],
    [{ steps: [{ end: "blocked" as const, message: "policy" }] }, "DSH_PROFILE_TURN_BLOCKED"],
    [{ steps: [{ end: "failed" as const }] }, "DSH_PROFILE_TURN_FAILED"],
    [{ promptError: "rate limited" }, "DSH_PROFILE_TURN_FAILED"],
  ])("turn outcome %j fails with %s", async (script, code) => {
    const run = driveStartup(["--stdio"], { script });
    run.send(execute());
    expect(await run.exit).toBe(1);
    expect(run.frames.at(-1)).toMatchObject({ type: "result", status: "failed", error: { code } });
  });

  test("max-tokens completes; full message text is sent when no deltas streamed", async () => {
    const run = driveStartup(["--stdio"], { script: { steps: [{ message: { text: "whole answer" } }, { end: "max-tokens" }] } });
    run.send(execute());
    expect(await run.exit).toBe(0);
    expect(run.frames.filter((f) => f.type === "text").map((f) => f.content)).toEqual(["whole answer"]);
    expect(run.frames.at(-1)).toMatchObject({ status: "completed", stop_reason: "max-tokens", output: "whole answer" });
  });

  test("stdin closing before execute ends quietly", async () => {
    const run = driveStartup(["--stdio"]);
    run.close();
    expect(await run.exit).toBe(0);
    expect(run.frames.map((f) => f.type)).toEqual(["ready"]);
  });
});
