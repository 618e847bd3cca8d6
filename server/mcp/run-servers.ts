/**
 * The MCP servers a run forwards: the user's list, replaced by the project's entries of the same name, disabled
 * ones left out. Unreadable files and bad entries are diagnostics of the run, never a failed run.
 */
import type { McpServer } from "../contracts/mcp.ts";
import { mergeMcpServers, type McpList } from "./config-files.ts";

export function runMcpServers(user: McpList, project: McpList, note: (note: { kind: string; message: string }) => void): McpServer[] {
  for (const message of [...user.diagnostics, ...project.diagnostics]) note({ kind: "mcp_config_invalid", message });
  return mergeMcpServers(user.servers, project.servers).map((entry) => entry.server);
}
