/**
 * MCP servers as the Settings form edits them: each field as text (arguments one per line, environment and headers
 * as `NAME=value` / `Name: value` lines), and back. What makes an entry valid is the daemon's schema
 * (server/contracts/mcp.ts), which answers a PUT with each issue's path; here only the lines are read.
 */
import type { McpServer } from "../../server/contracts/mcp.ts";

export type ServerDraft = {
  /** Stable across edits, for keys and field ids (not saved). */
  key: number;
  name: string;
  type: "stdio" | "http" | "sse";
  command: string;
  args: string;
  env: string;
  url: string;
  headers: string;
  enabled: boolean;
};

export type DraftField = Exclude<keyof ServerDraft, "key">;

let nextKey = 1;

export function emptyDraft(): ServerDraft {
  return { key: nextKey++, name: "", type: "stdio", command: "", args: "", env: "", url: "", headers: "", enabled: true };
}

export function draftOf(server: McpServer): ServerDraft {
  return {
    ...emptyDraft(),
    name: server.name,
    type: server.type ?? "stdio",
    command: server.command ?? "",
    args: (server.args ?? []).join("\n"),
    env: Object.entries(server.env ?? {}).map(([name, value]) => `${name}=${value}`).join("\n"),
    url: server.url ?? "",
    headers: Object.entries(server.headers ?? {}).map(([name, value]) => `${name}: ${value}`).join("\n"),
    enabled: server.enabled !== false,
  };
}

/** One problem of a draft, by its index in the list and its field. */
export type DraftIssue = { index: number; field: DraftField; message: string };

/** `NAME=value` (or `Name: value`) lines as a record; a line without the separator is an issue. */
function pairs(text: string, separator: "=" | ":"): { record: Record<string, string>; bad?: string } {
  const record: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const at = line.indexOf(separator);
    if (at <= 0) return { record, bad: `"${line.trim()}" is not ${separator === "=" ? "NAME=value" : "Name: value"}` };
    record[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return { record };
}

/** The servers the drafts describe, as the daemon takes them; or the lines that cannot be read. */
export function serversOf(drafts: readonly ServerDraft[]): { servers: Record<string, unknown>[]; issues: DraftIssue[] } {
  const issues: DraftIssue[] = [];
  const servers = drafts.map((draft, index) => {
    const server: Record<string, unknown> = { name: draft.name.trim(), type: draft.type };
    if (draft.type === "stdio") {
      if (draft.command.trim()) server.command = draft.command.trim();
      const args = draft.args.split("\n").filter((line) => line.trim() !== "");
      if (args.length) server.args = args;
      const env = pairs(draft.env, "=");
      if (env.bad) issues.push({ index, field: "env", message: env.bad });
      if (Object.keys(env.record).length) server.env = env.record;
    } else {
      if (draft.url.trim()) server.url = draft.url.trim();
      const headers = pairs(draft.headers, ":");
      if (headers.bad) issues.push({ index, field: "headers", message: headers.bad });
      if (Object.keys(headers.record).length) server.headers = headers.record;
    }
    if (!draft.enabled) server.enabled = false;
    return server;
  });
  return { servers, issues };
}

/** The daemon's issues (`["servers", i, field, …]`) as the form's: an issue of a record key belongs to its field. */
export function draftIssuesOf(issues: readonly { path: readonly (string | number)[]; message: string }[]): DraftIssue[] {
  return issues.flatMap(({ path, message }) => {
    const [list, index, field] = path;
    if (list !== "servers" || typeof index !== "number") return [];
    const known: DraftField[] = ["name", "type", "command", "args", "env", "url", "headers", "enabled"];
    return [{ index, field: known.includes(field as DraftField) ? (field as DraftField) : "name", message }];
  });
}
