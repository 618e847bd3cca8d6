import { describe, expect, test } from "bun:test";
import { classifyTool, toolUseEvent } from "../../../server/runtimes/streams/tool-kind.ts";
import { AgentEvent } from "../../../server/contracts/events.ts";

describe("classifyTool", () => {
  const cases: [string, unknown, string][] = [
    ["Write", {}, "file_write"],
    ["create", {}, "file_write"],
    ["write_file", {}, "file_write"],
    ["Edit", {}, "file_edit"],
    ["MultiEdit", {}, "file_edit"],
    ["edit", {}, "file_edit"],
    ["replace", {}, "file_edit"],
    ["str_replace", {}, "file_edit"],
    ["Read", {}, "file_read"],
    ["view", {}, "file_read"],
    ["read_file", {}, "file_read"],
    ["Bash", {}, "command"],
    ["bash", {}, "command"],
    ["exec_command", {}, "command"],
    ["run_shell_command", {}, "command"],
    ["shell", {}, "command"],
    ["Grep", {}, "search"],
    ["Glob", {}, "search"],
    ["grep", {}, "search"],
    ["glob", {}, "search"],
    ["search", {}, "search"],
    ["WebFetch", {}, "web"],
    ["WebSearch", {}, "web"],
    ["web_fetch", {}, "web"],
    ["TodoWrite", {}, "todo"],
    ["todo", {}, "todo"],
    ["Task", {}, "task"],
    ["Agent", {}, "task"],
    ["mcp__github__create_issue", {}, "mcp"],
    ["mcp_fs_read", {}, "mcp"],
    ["SomethingElse", {}, "other"],
  ];
  for (const [name, input, kind] of cases) {
    test(`${name} → ${kind}`, () => expect(classifyTool(name, input).kind).toBe(kind as never));
  }

  test("path keys, made relative to cwd when inside it", () => {
    expect(classifyTool("Write", { file_path: "/p/site/a.html" }, "/p/site")).toEqual({ kind: "file_write", path: "a.html" });
    expect(classifyTool("edit", { filePath: "/p/site/src/b.ts" }, "/p/site/")).toEqual({ kind: "file_edit", path: "src/b.ts" });
    expect(classifyTool("read_file", { absolute_path: "/elsewhere/c.md" }, "/p/site")).toEqual({ kind: "file_read", path: "/elsewhere/c.md" });
    expect(classifyTool("view", { path: "rel/d.txt" }, "/p")).toEqual({ kind: "file_read", path: "rel/d.txt" });
    expect(classifyTool("create", { filename: "e.css" })).toEqual({ kind: "file_write", path: "e.css" });
    expect(classifyTool("NotebookEdit", { notebook_path: "/p/n.ipynb" }, "/p")).toEqual({ kind: "file_edit", path: "n.ipynb" });
    expect(classifyTool("Write", { file_path: "/p-other/x" }, "/p")).toEqual({ kind: "file_write", path: "/p-other/x" });
  });

  test("apply_patch: Add File → file_write, Update File → file_edit", () => {
    const add = "*** Begin Patch\n*** Add File: /p/index.html\n+<h1>hi</h1>\n*** End Patch";
    const update = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch";
    expect(classifyTool("apply_patch", { input: add }, "/p")).toEqual({ kind: "file_write", path: "index.html" });
    expect(classifyTool("apply_patch", update)).toEqual({ kind: "file_edit", path: "src/a.ts" });
    expect(classifyTool("apply_patch", { command: ["apply_patch", update] })).toEqual({ kind: "file_edit", path: "src/a.ts" });
    expect(classifyTool("apply_patch", 42)).toEqual({ kind: "file_edit" });
  });

  test("never throws on odd input", () => {
    for (const input of [null, undefined, 1, "x", [], { file_path: 3 }]) {
      expect(() => classifyTool("Write", input, "/p")).not.toThrow();
    }
  });
});

test("toolUseEvent builds a valid tool_use event", () => {
  const event = toolUseEvent("t1", "Write", { file_path: "/p/a.html", content: "x" }, "/p");
  expect(event).toEqual({ type: "tool_use", id: "t1", name: "Write", input: { file_path: "/p/a.html", content: "x" }, kind: "file_write", path: "a.html" });
  expect(AgentEvent.safeParse(event).success).toBe(true);
});
