/** The user's MCP list, as od wrote and checked it, is read back without checking it again; any edit, and it is. */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "bun:test";
import { McpConfigFile, McpServer } from "../../server/contracts/mcp.ts";
import { z } from "../../server/contracts/zod.ts";
import { MCP_LIST_FORMAT, readMcpFile, writeMcpFile } from "../../server/mcp/config-files.ts";
import { tempDir } from "../support/temp.ts";

const schemaHash = (...schemas: z.ZodType[]) =>
  createHash("sha256").update(JSON.stringify(schemas.map((schema) => z.toJSONSchema(schema, { unrepresentable: "any", io: "input" })))).digest("hex").slice(0, 16);

test("MCP_LIST_FORMAT names the schemas a list was checked with: a change to them fails here until it is bumped", () => {
  // On a change to McpServer or McpConfigFile: bump MCP_LIST_FORMAT (server/mcp/config-files.ts), then set both below.
  // (Their refinements, such as a stdio server's command, are code the JSON Schema cannot show: bump it for those too.)
  expect({ format: MCP_LIST_FORMAT, schemas: schemaHash(McpServer, McpConfigFile) }).toEqual({ format: 1, schemas: "5d8a1fad6c77435b" });
});

test("a list od wrote is read back as written where it is trusted, and checked everywhere else", () => {
  using dir = tempDir();
  const path = join(dir.path, "mcp.json");
  const servers = [{ name: "fs", type: "stdio" as const, command: "mcp-fs", args: ["--root", "."] }];
  writeMcpFile(path, { servers });
  expect(readMcpFile(path, { trustChecked: true })).toEqual({ servers, diagnostics: [] });
  expect(readMcpFile(path)).toEqual({ servers, diagnostics: [] });
  expect((JSON.parse(readFileSync(path, "utf8")) as { checked: string }).checked).toStartWith(`${MCP_LIST_FORMAT}:`);

  // What only a read that trusts the mark returns unchecked: a server the schema refuses, under a mark that matches.
  const refused = [{ name: "bad name!", type: "stdio", command: "x" }];
  writeMcpFile(path, { servers: refused as never });
  expect(readMcpFile(path, { trustChecked: true }).servers).toEqual(refused as never);
  expect(readMcpFile(path).servers).toEqual([]);
});

test("an edit of the servers, or a list without the mark, is checked again", () => {
  using dir = tempDir();
  const path = join(dir.path, "mcp.json");
  writeMcpFile(path, { servers: [{ name: "fs", type: "stdio", command: "mcp-fs" }] });
  const file = JSON.parse(readFileSync(path, "utf8")) as { servers: Record<string, unknown>[]; checked: string };
  // A hand edit that breaks the entry: its mark no longer matches, and the schema leaves the entry out.
  writeFileSync(path, JSON.stringify({ ...file, servers: [{ name: "fs", type: "stdio" }] }));
  const edited = readMcpFile(path, { trustChecked: true });
  expect(edited.servers).toEqual([]);
  expect(edited.diagnostics.join("\n")).toContain("a stdio server needs a command");
  // Reformatted only: the same servers, the mark still holds.
  writeFileSync(path, JSON.stringify(file));
  expect(readMcpFile(path, { trustChecked: true }).servers).toEqual(file.servers as never);
  // Without a mark (written by hand, or by an older od): checked.
  writeFileSync(path, JSON.stringify({ servers: [{ name: "fs", command: "mcp-fs" }] }));
  expect(readMcpFile(path, { trustChecked: true }).servers).toEqual([{ name: "fs", type: "stdio", command: "mcp-fs" }]);
});
