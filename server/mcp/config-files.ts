/**
 * Reading and writing the MCP server lists. Reads are tolerant (a missing file is an empty list; an unreadable
 * one or a bad entry becomes a diagnostic and is left out); writes are validated and atomic, mode 0600 because
 * entries may carry tokens in `env`/`headers`.
 *
 * The user's list, in od's private data dir, is written with what od checked (`"checked": "<format>:<checksum of its
 * servers>"`) and read back as it is while that still holds: an `od run` otherwise loaded zod and built the schemas
 * (~5.5 ms before the agent started) to check a list the page had checked before saving it. An edit of its servers,
 * or another format, and the list is checked again. A project's list (in its folder, from its repository) is always
 * checked.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type * as McpContract from "../contracts/mcp.ts";
import type { McpConfigFile, McpServer } from "../contracts/mcp.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import { PRIVATE_DIR_MODE } from "../private-data-dir.ts";
import { textChecksum } from "../platform/text-checksum.ts";

/** The schemas, built once a list has entries to check: with no MCP file, `od run` never loads zod. */
const mcpContract = loadOnFirstUse<typeof McpContract>(import.meta.url, "../contracts/mcp.ts", () => require("../contracts/mcp.ts"));

/** `<project>/.od/mcp-config.json`. */
export function projectMcpPath(projectDir: string): string {
  return join(projectDir, ".od", "mcp-config.json");
}

export type McpList = { servers: McpServer[]; diagnostics: string[] };

/**
 * The McpServer schema a list was checked with. Bump it with any change to McpServer or McpConfigFile:
 * tests/mcp/mcp-file-seal.test.ts pins it to the schemas and fails until it is.
 */
export const MCP_LIST_FORMAT = 1;

/** What od writes beside the servers it checked, and finds again while they are as it wrote them. */
function checkedMark(servers: unknown): string {
  return `${MCP_LIST_FORMAT}:${textChecksum(JSON.stringify(servers))}`;
}

/** `trustChecked`: a list od wrote and checked (the user's, in the data dir) is read back without checking it again. */
export function readMcpFile(path: string, options: { trustChecked?: boolean } = {}): McpList {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { servers: [], diagnostics: [] };
    return { servers: [], diagnostics: [`${path}: unreadable (${(error as Error).message})`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { servers: [], diagnostics: [`${path}: not valid JSON (${(error as Error).message})`] };
  }
  if (options.trustChecked && isCheckedByOd(json)) return { servers: json.servers, diagnostics: [] };
  return parseMcpEntries(json, path);
}

function isCheckedByOd(json: unknown): json is { servers: McpServer[]; checked: string } {
  const file = json as { servers?: unknown; checked?: unknown } | null;
  return !!file && Array.isArray(file.servers) && file.checked === checkedMark(file.servers);
}

/**
 * Entries of `{servers: [...]}`; a Claude-style `{mcpServers: {name: {...}}}` is read too, so a pasted `.mcp.json`
 * works. Invalid entries are dropped with a diagnostic naming them; a later duplicate name is dropped.
 */
export function parseMcpEntries(json: unknown, where: string): McpList {
  const diagnostics: string[] = [];
  const raw = entriesOf(json);
  if (!raw) return { servers: [], diagnostics: [`${where}: expected {"servers": [...]}`] };
  const servers: McpServer[] = [];
  raw.forEach((entry, index) => {
    const parsed = mcpContract().McpServer.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const label = typeof (entry as { name?: unknown })?.name === "string" ? `'${(entry as { name: string }).name}'` : `#${index + 1}`;
      diagnostics.push(`${where}: server ${label} left out: ${issue ? `${issue.path.join(".") || "entry"}: ${issue.message}` : "invalid"}`);
    } else if (servers.some((s) => s.name === parsed.data.name)) {
      diagnostics.push(`${where}: duplicate server '${parsed.data.name}' left out`);
    } else servers.push(parsed.data);
  });
  return { servers, diagnostics };
}

function entriesOf(json: unknown): unknown[] | undefined {
  if (!json || typeof json !== "object" || Array.isArray(json)) return undefined;
  const record = json as Record<string, unknown>;
  if (Array.isArray(record.servers)) return record.servers;
  if (record.mcpServers && typeof record.mcpServers === "object" && !Array.isArray(record.mcpServers)) {
    return Object.entries(record.mcpServers as Record<string, unknown>).map(([name, value]) =>
      value && typeof value === "object" ? withInferredType({ name, ...(value as Record<string, unknown>) }) : { name },
    );
  }
  return undefined;
}

/** `file` as the API checked it (PutMcpRequest), marked as checked. */
export function writeMcpFile(path: string, file: McpConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = `${path}.${Date.now()}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ servers: file.servers, checked: checkedMark(file.servers) }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

/** The list a run uses: user entries, replaced by project entries of the same name; disabled ones left out. */
export function mergeMcpServers(user: McpServer[], project: McpServer[]): { from: "user" | "project"; server: McpServer }[] {
  const byName = new Map<string, { from: "user" | "project"; server: McpServer }>();
  for (const server of user) byName.set(server.name, { from: "user", server });
  for (const server of project) byName.set(server.name, { from: "project", server });
  return [...byName.values()].filter((entry) => entry.server.enabled !== false);
}

/** Claude-style entries may omit `type` for URL servers. */
function withInferredType(entry: Record<string, unknown>): Record<string, unknown> {
  return entry.type === undefined && typeof entry.url === "string" ? { ...entry, type: "http" } : entry;
}
