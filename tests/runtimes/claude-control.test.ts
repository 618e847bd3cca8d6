// Issue #37: Claude Code's can_use_tool control requests and the control_response lines that answer them.
import { describe, expect, test } from "bun:test";
import { questionForTool } from "../../server/runtimes/approval-channel.ts";
import { controlResponseLine, parseCanUseTool } from "../../server/runtimes/streams/claude-control.ts";

// As Claude Code 2.1.332 prints it with --permission-prompt-tool stdio.
const line = JSON.stringify({
  type: "control_request",
  request_id: "7",
  request: { subtype: "can_use_tool", tool_name: "Write", input: { file_path: "/p/a.txt", content: "x" }, tool_use_id: "toolu_1", permission_suggestions: [] },
});

describe("claude control protocol", () => {
  test("a can_use_tool request is parsed; every other line is not", () => {
    expect(parseCanUseTool(line)).toEqual({ requestId: "7", toolName: "Write", input: { file_path: "/p/a.txt", content: "x" } });
    expect(parseCanUseTool(JSON.stringify({ type: "control_request", request_id: "1", request: { subtype: "initialize" } }))).toBeNull();
    expect(parseCanUseTool('{"type":"assistant","message":{"content":"can_use_tool"}}')).toBeNull();
    expect(parseCanUseTool("can_use_tool {not json")).toBeNull();
  });

  test("allow answers with the input unchanged; deny with the words for the agent", () => {
    const request = parseCanUseTool(line)!;
    expect(JSON.parse(controlResponseLine(request, { decision: "allow_once" }))).toEqual({
      type: "control_response",
      response: { subtype: "success", request_id: "7", response: { behavior: "allow", updatedInput: { file_path: "/p/a.txt", content: "x" } } },
    });
    expect(JSON.parse(controlResponseLine(request, { decision: "deny", message: "no" })).response.response).toEqual({ behavior: "deny", message: "no" });
  });

  test("questions name the file relative to the run's folder, or the command with its prefix", () => {
    expect(questionForTool("Write", { file_path: "/p/a.txt" }, "/p")).toMatchObject({ kind: "edit", title: "a.txt" });
    expect(questionForTool("Bash", { command: "npm test -- -u" }, "/p")).toMatchObject({ kind: "command", title: "npm test -- -u", commandPrefix: "npm test" });
    expect(questionForTool("Bash", { command: "ls -la" })).toMatchObject({ commandPrefix: "ls" });
    expect(questionForTool("Read", { file_path: "/p/a.txt" }, "/p")).toMatchObject({ kind: "read" });
  });
});
