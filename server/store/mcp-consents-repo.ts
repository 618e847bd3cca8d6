/**
 * Which project MCP server lists the person approved: one row per project, the hash of the list they saw
 * (server/mcp/project-consent.ts) and when. Approving another list replaces it; deleting the project deletes it.
 */
import type { SqliteDatabase } from "./sqlite.ts";

export type McpConsentRecord = { serversHash: string; grantedAt: number };

export class McpConsentsRepo {
  constructor(private readonly db: SqliteDatabase) {}

  get(projectId: string): McpConsentRecord | undefined {
    const row = this.db.prepare("SELECT servers_hash, granted_at FROM mcp_consents WHERE project_id = ?").get(projectId);
    return row ? { serversHash: String(row.servers_hash), grantedAt: Number(row.granted_at) } : undefined;
  }

  grant(projectId: string, serversHash: string, at: number): void {
    this.db.prepare("INSERT OR REPLACE INTO mcp_consents (project_id, servers_hash, granted_at) VALUES (?, ?, ?)").run(projectId, serversHash, at);
  }

  /** True when there was a consent to take back. */
  revoke(projectId: string): boolean {
    const had = this.get(projectId) !== undefined;
    this.db.prepare("DELETE FROM mcp_consents WHERE project_id = ?").run(projectId);
    return had;
  }
}
