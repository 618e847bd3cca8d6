/** Issue #19: tool calls people can read — command, exit code and output; edits as diffs; failures marked. */
import { describe, expect, test } from "bun:test";
import { h } from "preact";
import { ToolCard, WrittenContent } from "../../web/components/tool-card.tsx";
import { editDiff } from "../../web/lib/edit-diff.ts";
import { changeForPath, runWriteChanges, writesPerChange } from "../../web/lib/write-changes.ts";
import type { FileChange } from "../../server/contracts/changes.ts";
import type { ToolItem } from "../../web/state/run-state.ts";
import { vnodeToHtml } from "../support/web-vnode-html.ts";

function tool(over: Partial<ToolItem>): ToolItem {
  return { kind: "tool", key: "k", id: "t", name: "Bash", toolKind: "command", input: {}, inputDraft: "", state: "done", ...over };
}

const html = (t: ToolItem) => vnodeToHtml(h(ToolCard, { tool: t }));

describe("edit diffs from the call's input", () => {
  test("Claude Edit: old_string → new_string as removed and added lines, unchanged lines as context", () => {
    expect(editDiff({ file_path: "/p/a.css", old_string: "a {}\nh1 { color: red; }\n", new_string: "a {}\nh1 { color: navy; }\n" })).toEqual([
      { kind: "ctx", text: "a {}" },
      { kind: "del", text: "h1 { color: red; }" },
      { kind: "add", text: "h1 { color: navy; }" },
    ]);
  });

  test("MultiEdit: one hunk per edit; Write: every line added; a unified diff in the input is read as one", () => {
    expect(editDiff({ edits: [{ old_string: "x", new_string: "y" }] })).toEqual([
      { kind: "hunk", text: "@@ edit 1 @@" },
      { kind: "del", text: "x" },
      { kind: "add", text: "y" },
    ]);
    expect(editDiff({ file_path: "/p/n.txt", content: "one\ntwo\n" })).toEqual([
      { kind: "add", text: "one" },
      { kind: "add", text: "two" },
    ]);
    expect(editDiff({ diff: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n" })).toEqual([
      { kind: "hunk", text: "@@ -1 +1 @@" },
      { kind: "del", text: "old" },
      { kind: "add", text: "new" },
    ]);
  });

  test("an input with no change in it has no diff; a huge one is cut with a count of what was left out", () => {
    expect(editDiff({ file_path: "/p/a", change: "update" })).toBeUndefined();
    const lines = editDiff({ content: "x\n".repeat(1000) })!;
    expect(lines).toHaveLength(401);
    expect(lines.at(-1)).toEqual({ kind: "hunk", text: "… 600 more lines" });
  });
});

describe("tool cards", () => {
  test("a shell command shows its command line, its exit code and its output", () => {
    const out = html(tool({ input: { command: "npx stylelint styles/main.css" }, result: "Exit code 2\n✖ color-named", state: "error", exitCode: 2 }));
    expect(out).toContain("npx stylelint styles/main.css");
    expect(out).toContain('data-testid="tool-exit" data-exit="2"');
    expect(out).toContain('data-testid="tool-output" open');
    expect(out).toContain("✖ color-named");
  });

  test("long successful output is folded until asked for", () => {
    const out = html(tool({ input: { command: "seq 100" }, result: Array.from({ length: 100 }, (_, i) => String(i)).join("\n"), exitCode: 0 }));
    expect(out).toContain('<details class="tool-output" data-testid="tool-output" ontoggle="[handler]"><summary onclick="[handler]">Output · 100 lines</summary></details>');
    expect(out).toContain('data-exit="0"');
    expect(out).not.toContain("tool-failure");
  });

  test("an edit shows its path and the diff of what it replaced", () => {
    const out = html(tool({ name: "Edit", toolKind: "file_edit", path: "styles/main.css", input: { file_path: "/p/styles/main.css", old_string: "red", new_string: "navy" } }));
    expect(out).toContain("styles/main.css");
    expect(out).toContain('data-testid="tool-diff"');
    expect(out).toContain('data-kind="del">-red');
    expect(out).toContain('data-kind="add">+navy');
  });

  test("a failed call and a refused call each carry a visible mark, and the failure text is shown", () => {
    const failed = html(tool({ name: "Edit", toolKind: "file_edit", input: {}, result: "File has not been read yet.", state: "error" }));
    expect(failed).toContain('data-failure="failed"');
    expect(failed).toContain('data-testid="tool-error">File has not been read yet.');
    const refused = html(tool({ name: "Write", toolKind: "file_write", input: {}, result: "denied", state: "error", refused: true }));
    expect(refused).toContain('data-failure="refused"');
    expect(refused).toContain('data-refused="true"');
    expect(html(tool({ result: "ok" }))).not.toContain("tool-failure");
  });

  // Issue #34: a call its run's end cut off says so; it is not marked failed.
  test("a canceled and an interrupted call each show their own state, not a failure", () => {
    for (const state of ["canceled", "interrupted"] as const) {
      const out = html(tool({ state }));
      expect(out).toContain(`data-state="${state}"`);
      expect(out).toContain(`data-stopped="${state}"`);
      expect(out).not.toContain("tool-failure");
      expect(out).not.toContain("✓");
      expect(out).not.toContain("✕");
    }
  });
});

// Issue #39: a Write that overwrote a file showed "+4 −0" for a one-line change (its input is the whole new content).
describe("a Write's card against what the file held before", () => {
  const write = (path: string) => tool({ name: "Write", toolKind: "file_write", path, input: { file_path: path, content: "a\nB\nc\nd\n" } });
  const modified: FileChange = { path: "src/x.txt", kind: "modified", diff: "--- a/src/x.txt\n+++ b/src/x.txt\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n d\n", additions: 1, deletions: 1, binary: false };

  test("while the run is live it shows the content as content, with no +/− count", () => {
    const out = html(write("/p/src/x.txt"));
    expect(out).toContain('data-testid="tool-content"');
    expect(out).toContain("Content · 4 lines");
    expect(out).not.toContain("diff-added");
  });

  test("once the run has ended, its recorded change of the file is the diff against the file before the run", () => {
    const t = write("/p/src/x.txt");
    const known = runWriteChanges([modified], [t]);
    const lines = editDiff(t.input)!;
    const out = vnodeToHtml(h(WrittenContent, { id: "k\ndiff", lines, recorded: known.changeOf(t.path!) }));
    expect(out).toContain('data-against="before-run"');
    expect(out).toMatch(/Diff against the file before the run <span class="diff-added">\+1<\/span> <span class="diff-removed">−1/);
    expect(out).toContain("-b");
    expect(out).toContain("+B");
    // A file the run created: its content is all of the diff.
    const created = vnodeToHtml(h(WrittenContent, { id: "k\ndiff", lines, recorded: { ...modified, kind: "created" } }));
    expect(created).toMatch(/<span class="diff-added">\+4<\/span> <span class="diff-removed">−0/);
  });

  test("which change a call made: the longest changed path it names, and only when it alone wrote the file", () => {
    const other: FileChange = { ...modified, path: "x.txt" };
    expect(changeForPath([other, modified], "/p/src/x.txt")).toBe(modified);
    expect(changeForPath([other, modified], "x.txt")).toBe(other);
    expect(changeForPath([modified], "/p/src/y.txt")).toBeUndefined();
    const twice = [write("/p/src/x.txt"), { ...write("src/x.txt"), key: "k2", id: "t2" }];
    expect(writesPerChange([modified], twice).get("src/x.txt")).toBe(2);
    expect(runWriteChanges([modified], twice).changeOf("/p/src/x.txt")).toBeUndefined();
    const nested = [{ ...tool({ toolKind: "task", name: "Task" }), children: [write("/p/src/x.txt")] }];
    expect(runWriteChanges([modified], nested).changeOf("/p/src/x.txt")).toBe(modified);
  });
});
