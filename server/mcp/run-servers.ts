/**
 * The MCP servers a run forwards: the user's list, replaced by the project's entries of the same name, disabled
 * ones left out. The project's entries only with the person's consent to that list (`consent`; absent: the caller
 * decided already); without it they are left out, and the run says so. Unreadable files and bad entries are
 * diagnostics of the run, never a failed run.
 */
import type { McpServer } from "../contracts/mcp.ts";
import { mergeMcpServers, type McpList } from "./config-files.ts";
import { consentNeededNote, projectServersHash, type ProjectMcpConsent } from "./project-consent.ts";

export function runMcpServers(user: McpList, project: McpList, note: (note: { kind: string; message: string; detail?: unknown }) => void, consent?: ProjectMcpConsent): McpServer[] {
  for (const message of [...user.diagnostics, ...project.diagnostics]) note({ kind: "mcp_config_invalid", message });
  const allowed = project.servers.length === 0 || !consent || consent(projectServersHash(project.servers));
  if (!allowed) note(consentNeededNote(project.servers));
  return mergeMcpServers(user.servers, allowed ? project.servers : []).map((entry) => entry.server);
}
