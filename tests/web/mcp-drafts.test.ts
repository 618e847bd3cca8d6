// Issue #39: MCP servers edited as a form. The drafts' text fields round-trip a server, lines the form cannot read
// are named at their field, and the daemon's issues (paths into {servers}) land on the field they are about.
import { describe, expect, test } from "bun:test";
import { draftIssuesOf, draftOf, emptyDraft, serversOf } from "../../web/lib/mcp-drafts.ts";

describe("MCP server drafts", () => {
  test("a stdio and an http server round-trip through the form's fields", () => {
    const stdio = { name: "files", type: "stdio" as const, command: "mcp-files", args: ["--root", "."], env: { TOKEN: "a=b" } };
    const http = { name: "web", type: "http" as const, url: "https://example.invalid/mcp", headers: { Authorization: "Bearer x" }, enabled: false };
    const drafts = [draftOf(stdio), draftOf(http)];
    expect(drafts[0]).toMatchObject({ args: "--root\n.", env: "TOKEN=a=b" });
    expect(drafts[1]).toMatchObject({ headers: "Authorization: Bearer x", enabled: false });
    expect(serversOf(drafts)).toEqual({ servers: [stdio, http], issues: [] });
  });

  test("fields of the other kind are left out; blank lines are skipped; a line without its separator is an issue", () => {
    const draft = { ...emptyDraft(), name: "x", command: "run", args: "a\n\n b \n", url: "https://left.out", env: "OK=1\nbroken" };
    const { servers, issues } = serversOf([draft]);
    expect(servers).toEqual([{ name: "x", type: "stdio", command: "run", args: ["a", " b "], env: { OK: "1" } }]);
    expect(issues).toEqual([{ index: 0, field: "env", message: '"broken" is not NAME=value' }]);
  });

  test("the daemon's issues are put on the entry and field they name; an env key's issue on the env field", () => {
    expect(
      draftIssuesOf([
        { path: ["servers", 1, "command"], message: "a stdio server needs a command" },
        { path: ["servers", 0, "env", "1BAD"], message: "not a valid environment variable name" },
        { path: ["servers"], message: "duplicate" },
        { path: ["servers", 2, "bogus"], message: "unknown key" },
      ]),
    ).toEqual([
      { index: 1, field: "command", message: "a stdio server needs a command" },
      { index: 0, field: "env", message: "not a valid environment variable name" },
      { index: 2, field: "name", message: "unknown key" },
    ]);
  });
});
