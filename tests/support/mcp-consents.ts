/** Project MCP consents kept in memory, for route tests without a database. */
import type { McpConsentRecord, McpConsentsRepo } from "../../server/store/mcp-consents-repo.ts";

export function memoryConsents(): Pick<McpConsentsRepo, "get" | "grant" | "revoke"> {
  const records = new Map<string, McpConsentRecord>();
  return {
    get: (projectId) => records.get(projectId),
    grant: (projectId, serversHash, grantedAt) => void records.set(projectId, { serversHash, grantedAt }),
    revoke: (projectId) => records.delete(projectId),
  };
}
