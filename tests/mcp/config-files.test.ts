// MCP lists: tolerant reads (bad entries left out with a reason), Claude-style files accepted, project overrides user.
import { expect, test } from "bun:test";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "../../server/contracts/mcp.ts";
import { mergeMcpServers, parseMcpEntries, readMcpFile, writeMcpFile } from "../../server/mcp/config-files.ts";
import { tempDir } from "../support/temp.ts";

const server = (input: Record<string, unknown>) => McpServer.parse(input);

test("missing file → empty; invalid JSON → a diagnostic", () => {
  using temp = tempDir("od-mcp-");
  expect(readMcpFile(join(temp.path, "none.json"))).toEqual({ servers: [], diagnostics: [] });
  writeFileSync(join(temp.path, "bad.json"), "{ nope");
  expect(readMcpFile(join(temp.path, "bad.json")).diagnostics[0]).toContain("not valid JSON");
});

test("invalid and duplicate entries are left out with reasons; valid ones kept", () => {
  const list = parseMcpEntries(
    {
      servers: [
        { name: "fs", command: "mcp-fs", args: ["/tmp"] },
        { name: "web", type: "http" },
        { name: "fs", command: "other" },
        { name: "bad name!", command: "x" },
      ],
    },
    "mcp.json",
  );
  expect(list.servers.map((s) => s.name)).toEqual(["fs"]);
  expect(list.diagnostics).toEqual([
    "mcp.json: server 'web' left out: url: an http server needs a url",
    "mcp.json: duplicate server 'fs' left out",
    expect.stringContaining("server 'bad name!' left out: name:"),
  ]);
});

test("a Claude-style {mcpServers: {...}} file is read, url entries default to http", () => {
  const list = parseMcpEntries({ mcpServers: { fs: { command: "mcp-fs" }, web: { url: "https://mcp.example.test/x" } } }, "x");
  expect(list.servers).toEqual([server({ name: "fs", command: "mcp-fs" }), server({ name: "web", type: "http", url: "https://mcp.example.test/x" })]);
});

test("project entries override user ones by name; disabled entries are left out", () => {
  const user = [server({ name: "fs", command: "user-fs" }), server({ name: "db", command: "db" }), server({ name: "off", command: "x" })];
  const project = [server({ name: "fs", command: "project-fs" }), server({ name: "off", command: "x", enabled: false })];
  expect(mergeMcpServers(user, project).map((e) => [e.server.name, e.from, e.server.command])).toEqual([
    ["fs", "project", "project-fs"],
    ["db", "user", "db"],
  ]);
});

test("writes are private (0600) and read back", () => {
  using temp = tempDir("od-mcp-");
  const path = join(temp.path, "sub", "mcp.json");
  writeMcpFile(path, { servers: [server({ name: "fs", command: "mcp-fs", env: { TOKEN_X: "v" } })] });
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(readMcpFile(path).servers[0]).toMatchObject({ name: "fs", env: { TOKEN_X: "v" } });
});
