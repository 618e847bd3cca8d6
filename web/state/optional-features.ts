/**
 * Skills (`GET /api/skills`) and MCP servers (`GET/PUT /api/mcp`): loaded on demand (first `@`, Settings opened),
 * and hidden when a daemon does not have the endpoint (404).
 */
import { signal } from "@preact/signals";
import type { McpConfigResponse } from "../../server/contracts/mcp.ts";
import type { SkillSummary as SkillListItem } from "../../server/contracts/skills.ts";
import { ApiError, errorMessage, isMissingEndpoint, type Api } from "../api/client.ts";
import { draftIssuesOf, type DraftIssue } from "../lib/mcp-drafts.ts";

/** A skill as the picker needs it (the daemon's `GET /api/skills` items carry more). */
export type SkillSummary = Pick<SkillListItem, "id" | "name"> & Partial<Pick<SkillListItem, "description" | "source" | "usable">>;

export function createSkillsModel(api: Api) {
  const skills = signal<SkillSummary[]>([], { name: "skills.list" });
  const supported = signal(false, { name: "skills.supported" });
  /** The project whose list was loaded (`?projectId=` adds its `.od/skills/`); undefined = nothing requested yet. */
  let loadedFor: string | null | undefined;

  /** Loads the list for a project once (later calls for the same project are no-ops). */
  async function load(projectId: string | null = null): Promise<void> {
    if (loadedFor === projectId) return;
    loadedFor = projectId;
    try {
      const query = projectId ? `?projectId=${encodeURIComponent(projectId)}` : "";
      const body = await api.get<{ skills?: SkillSummary[] }>(`/api/skills${query}`);
      if (loadedFor !== projectId) return; // another project was opened meanwhile
      skills.value = (body.skills ?? []).filter((s) => typeof s?.id === "string" && typeof s.name === "string");
      supported.value = true;
    } catch {
      if (loadedFor === projectId) supported.value = false;
    }
  }

  /** Usable skills whose id or name starts with (then contains) the query, for `@` completion. */
  function complete(query: string, limit = 8): SkillSummary[] {
    const q = query.toLowerCase();
    const usable = skills.value.filter((s) => s.usable !== false);
    const starts = usable.filter((s) => s.id.toLowerCase().startsWith(q) || s.name.toLowerCase().startsWith(q));
    const contains = usable.filter((s) => !starts.includes(s) && (s.id.toLowerCase().includes(q) || s.name.toLowerCase().includes(q)));
    return [...starts, ...contains].slice(0, limit);
  }

  return { skills, supported, load, complete };
}
export type SkillsModel = ReturnType<typeof createSkillsModel>;

/**
 * The user's MCP server list. The editor holds only `{ "servers": [...] }` (what `PUT /api/mcp` stores); the rest
 * of the answer — the file path, read problems, which agents cannot receive servers — is shown beside it.
 */
export function createMcpModel(api: Api) {
  const supported = signal(false, { name: "mcp.supported" });
  const config = signal<McpConfigResponse | null>(null, { name: "mcp.config" });
  const json = signal("", { name: "mcp.json" });
  const error = signal<string | null>(null, { name: "mcp.error" });
  const saved = signal(false, { name: "mcp.saved" });

  function show(response: McpConfigResponse): void {
    config.value = response;
    json.value = JSON.stringify({ servers: response.servers ?? [] }, null, 2);
  }

  async function load(): Promise<void> {
    try {
      show(await api.get<McpConfigResponse>("/api/mcp"));
      supported.value = true;
      error.value = null;
    } catch (loadError) {
      supported.value = false;
      if (!isMissingEndpoint(loadError)) error.value = errorMessage(loadError);
    }
  }

  /** The form's servers saved; resolves with the issues od named (each entry's field), none when saved. */
  async function saveServers(servers: unknown[]): Promise<DraftIssue[]> {
    saved.value = false;
    try {
      show(await api.put<McpConfigResponse>("/api/mcp", { servers }));
      error.value = null;
      saved.value = true;
      return [];
    } catch (saveError) {
      error.value = errorMessage(saveError);
      return saveError instanceof ApiError ? draftIssuesOf(saveError.issues) : [];
    }
  }

  /** Saves the edited `{servers}`; a daemon refusal (an invalid entry) keeps the text and shows why. */
  async function save(text: string): Promise<void> {
    saved.value = false;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (parseError) {
      error.value = `Not valid JSON: ${errorMessage(parseError)}`;
      return;
    }
    if (Array.isArray(body)) body = { servers: body };
    try {
      show(await api.put<McpConfigResponse>("/api/mcp", body));
      error.value = null;
      saved.value = true;
    } catch (saveError) {
      error.value = errorMessage(saveError);
    }
  }

  return { supported, config, json, error, saved, load, save, saveServers };
}
export type McpModel = ReturnType<typeof createMcpModel>;
