/**
 * A project's own MCP servers (`.od/mcp-config.json`, which a cloned repository brings along) start programs on this
 * machine or the project's: its stdio `command` runs at the next prompt. So they reach a run only once the person has
 * approved that exact list for that project. What is approved is a hash of the servers as od read them (every field
 * of every entry, in order): a changed file, or another machine's copy that differs, asks again.
 */
import type { McpServer } from "../contracts/mcp.ts";
import { sha256 } from "../node-crypto.ts";

/** The hash a consent is given to: SHA-256 of the servers' JSON, as parsed (so the same list in Claude's format or od's is the same list). */
export function projectServersHash(servers: readonly McpServer[]): string {
  return sha256().update(JSON.stringify(servers)).digest("hex");
}

/** Whether a run may start a project's servers whose list has this hash. */
export type ProjectMcpConsent = (serversHash: string) => boolean;

/** The run's note when a project's servers were left out, naming them and the two ways to allow them. */
export function consentNeededNote(servers: readonly McpServer[]): { kind: string; message: string; detail: unknown; notice: true } {
  const names = servers.map((server) => server.name).join(", ");
  return {
    kind: "mcp_consent",
    message: `this project's own MCP servers (${names}, from .od/mcp-config.json) were not started: they run programs, so od starts them only once you approve them (the page asks; od run: --trust-project-mcp)`,
    detail: { servers: servers.map((server) => server.name), serversHash: projectServersHash(servers) },
    notice: true,
  };
}
