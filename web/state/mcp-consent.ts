/**
 * The open project's own MCP servers (`.od/mcp-config.json`) and whether the person approved them: they start
 * programs, so runs leave them out until the person approves exactly this list (the banner above the composer).
 */
import { signal } from "@preact/signals";
import type { McpConsentResponse } from "../../server/contracts/mcp.ts";
import { errorMessage, type Api } from "../api/client.ts";

export function createMcpConsentModel(api: Api) {
  const consent = signal<McpConsentResponse | null>(null, { name: "mcpConsent.value" });
  const projectId = signal<string | null>(null, { name: "mcpConsent.projectId" });
  const error = signal<string | null>(null, { name: "mcpConsent.error" });
  /** "Not now" for this project, until the page is reloaded or the list changes. */
  const dismissed = signal<string | null>(null, { name: "mcpConsent.dismissed" });
  const path = (id: string) => `/api/projects/${encodeURIComponent(id)}/mcp-consent`;

  async function load(id: string | null): Promise<void> {
    projectId.value = id;
    consent.value = null;
    error.value = null;
    if (!id) return;
    try {
      const answer = await api.get<McpConsentResponse>(path(id));
      if (projectId.peek() === id) consent.value = answer;
    } catch (loadError) {
      // An older od has no such route, and a remote project's host may be away: nothing to ask then.
      if (projectId.peek() === id) error.value = errorMessage(loadError);
    }
  }

  async function approve(): Promise<void> {
    const id = projectId.peek();
    const shown = consent.peek();
    if (!id || !shown) return;
    try {
      consent.value = await api.post<McpConsentResponse>(path(id), { serversHash: shown.serversHash });
      error.value = null;
    } catch (approveError) {
      error.value = errorMessage(approveError);
      // The list changed since it was shown (409): show the new one, to be approved in its turn.
      await load(id);
      error.value = errorMessage(approveError);
    }
  }

  function notNow(): void {
    dismissed.value = consent.peek()?.serversHash ?? null;
  }

  return { consent, projectId, error, dismissed, load, approve, notNow };
}
export type McpConsentModel = ReturnType<typeof createMcpConsentModel>;
