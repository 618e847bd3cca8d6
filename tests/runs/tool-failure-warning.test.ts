// Issue #34: codex inside a container whose kernel refuses it user namespaces: bubblewrap fails every command and
// write, codex answers anyway and its turn completes. The run still ends `succeeded` (the agent did answer), but
// its end says that most tool calls failed, names them, and recognises the sandbox's failure text as the likely
// cause; the warning is also streamed (diagnostic) and kept in the stored message.
//
// The transcript is what codex 0.17x sends over app-server in such a container: its `configWarning` about user
// namespaces, each command's output being bubblewrap's own error (exit 1), apply_patch failing, then the answer.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { RunEvent } from "../../server/contracts/runs.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { agentEvents, endOf, runHarness } from "../support/fake-agents.ts";

const codex = getAgentDef("codex") as RuntimeAgentDef;
const fakes = join(import.meta.dir, "..", "fakes");
const BWRAP =
  "bwrap: No permissions to create a new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.\n";
const USERNS_WARNING = "Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces.";

const notify = (method: string, params: Record<string, unknown>) => ({ notify: { method, params: { threadId: "thread-fake-1", turnId: "turn-fake-1", ...params } } });
function command(id: string, line: string, output: string, exitCode: number) {
  const status = exitCode === 0 ? "completed" : "failed";
  return [
    notify("item/started", { item: { type: "commandExecution", id, command: line, status: "inProgress" } }),
    notify("item/completed", { item: { type: "commandExecution", id, command: line, status, aggregatedOutput: output, exitCode } }),
  ];
}
const patch = (id: string, path: string, status: string) => notify("item/completed", { item: { type: "fileChange", id, status, changes: [{ path: `$CWD/${path}`, kind: { type: "add" }, diff: "hello\n" }] } });
const answer = (text: string) => notify("item/agentMessage/delta", { itemId: "m1", delta: text });

async function runCodex(turn: unknown[]) {
  const h = await runHarness({ defs: [codex], shims: { codex: join(fakes, "codex-app-server.ts") } });
  h.store.appConfig.update({ agentCliEnv: { codex: { FAKE_CODEX_SCRIPT: JSON.stringify({ turn }) } } });
  const run = await h.run({ agentId: "codex", message: "make hello.txt and run the tests" });
  return { h, run };
}

describe("a succeeded run whose tool calls mostly failed says so", () => {
  test("codex in a container without user namespaces: succeeded, with a warning naming the failed calls and the sandbox as the cause", async () => {
    const { h, run } = await runCodex([
      notify("configWarning", { summary: USERNS_WARNING, details: null }),
      ...command("c1", "/bin/bash -lc ls", BWRAP, 1),
      patch("p1", "hello.txt", "failed"),
      ...command("c2", "/bin/bash -lc 'bun test'", BWRAP, 1),
      ...command("c3", "/bin/bash -lc pwd", "/srv/app\n", 0),
      answer("I could not run anything: the sandbox refused every command."),
    ]);
    await using _ = h;
    for (const event of run.events) expect(RunEvent.safeParse(event).success).toBe(true);
    const end = endOf(run.events);
    expect(end.status).toBe("succeeded");
    expect(end.warning).toMatchObject({
      code: "TOOL_CALLS_FAILED",
      toolCalls: 4,
      failedToolCalls: 3,
      failed: [
        { tool: "Bash", target: "/bin/bash -lc ls", error: expect.stringMatching(/^bwrap: No permissions to create a new namespace/) },
        { tool: "Write", target: "hello.txt" },
        { tool: "Bash", target: "/bin/bash -lc 'bun test'" },
      ],
      likelyCause: expect.stringContaining("sandbox (bubblewrap) could not start"),
      evidence: expect.stringMatching(/^bwrap: No permissions to create a new namespace/),
    });
    expect(end.warning!.message).toStartWith("3 of 4 tool calls failed (Bash /bin/bash -lc ls: bwrap:");
    expect(end.warning!.message).toContain("Likely cause: the agent's sandbox (bubblewrap) could not start here");
    // Streamed before the end, and kept with the answer.
    expect(run.events.find((e) => e.type === "diagnostic" && e.kind === "tool_calls_failed")).toMatchObject({ message: end.warning!.message });
    expect(agentEvents(run.events)).toContainEqual({ type: "error", message: end.warning!.message, code: "TOOL_CALLS_FAILED", terminal: false });
    const stored = h.store.messages.list(run.conversationId).find((message) => message.runId === run.runId);
    expect(stored?.events).toContainEqual({ type: "error", message: end.warning!.message, code: "TOOL_CALLS_FAILED" });
  });

  test("the same over `codex exec --json`: its stderr warning and failed items give the same warning", async () => {
    const item = (type: string, record: Record<string, unknown>) => ({ out: JSON.stringify({ type, item: record }) });
    await using h = await runHarness({
      defs: [codex],
      shims: { codex: undefined },
      env: { OD_CODEX_TRANSPORT: "exec-json" },
      steps: [
        { readAll: true },
        { err: `\x1b[33mwarning:\x1b[0m ${USERNS_WARNING}` },
        { out: JSON.stringify({ type: "thread.started", thread_id: "t-1" }) },
        { out: JSON.stringify({ type: "turn.started" }) },
        item("item.started", { id: "item_0", type: "command_execution", command: "/bin/bash -lc ls", aggregated_output: "", exit_code: null, status: "in_progress" }),
        item("item.completed", { id: "item_0", type: "command_execution", command: "/bin/bash -lc ls", aggregated_output: BWRAP, exit_code: 1, status: "failed" }),
        item("item.completed", { id: "item_1", type: "file_change", changes: [{ path: "hello.txt", kind: "add" }], status: "failed" }),
        item("item.completed", { id: "item_2", type: "agent_message", text: "The sandbox refused every command." }),
        { out: JSON.stringify({ type: "turn.completed", usage: { input_tokens: 1, output_tokens: 1 } }) },
      ],
    });
    const run = await h.run({ agentId: "codex", message: "make hello.txt" });
    const end = endOf(run.events);
    expect(end).toMatchObject({ status: "succeeded", files: [], warning: { code: "TOOL_CALLS_FAILED", toolCalls: 2, failedToolCalls: 2 } });
    expect(end.warning!.failed.map((call) => call.tool)).toEqual(["Bash", "Write"]);
    expect(end.warning!.likelyCause).toContain("bubblewrap");
  });

  test("most calls failing without a sandbox signature: a warning without a guessed cause", async () => {
    const { h, run } = await runCodex([
      ...command("c1", "cat missing.txt", "cat: missing.txt: No such file or directory\n", 1),
      ...command("c2", "make", "make: *** No targets specified and no makefile found.  Stop.\n", 2),
      ...command("c3", "ls", "a.txt\n", 0),
      answer("There is nothing to build."),
    ]);
    await using _ = h;
    const end = endOf(run.events);
    expect(end).toMatchObject({ status: "succeeded", warning: { toolCalls: 3, failedToolCalls: 2 } });
    expect(end.warning).not.toHaveProperty("likelyCause");
  });

  test("a few failed calls among many (a grep that found nothing) are no warning", async () => {
    const { h, run } = await runCodex([
      ...command("c1", "grep -r TODO .", "", 1),
      ...command("c2", "ls", "a.txt\n", 0),
      ...command("c3", "cat a.txt", "hi\n", 0),
      answer("No TODOs."),
    ]);
    await using _ = h;
    const end = endOf(run.events);
    expect(end.status).toBe("succeeded");
    expect(end).not.toHaveProperty("warning");
    expect(run.events.some((e) => e.type === "diagnostic" && e.kind === "tool_calls_failed")).toBe(false);
  });
});
