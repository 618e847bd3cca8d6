/**
 * Features whose endpoints may not exist yet (skills, MCP servers): each loads once and hides itself on 404.
 */
import { signal } from "@preact/signals";
import { errorMessage, isMissingEndpoint, type Api } from "../api/client.ts";

/** A skill as the picker needs it (the daemon's `GET /api/skills` items carry more). */
export interface SkillSummary {
  id: string;
  name: string;
  description?: string;
}

export function createSkillsModel(api: Api) {
  const skills = signal<SkillSummary[]>([], { name: "skills.list" });
  const supported = signal(false, { name: "skills.supported" });
  let requested = false;

  /** Loads once (later calls are no-ops), so probing an endpoint that may not exist happens only on demand. */
  async function load(): Promise<void> {
    if (requested) return;
    requested = true;
    try {
      const body = await api.get<{ skills?: SkillSummary[] }>("/api/skills");
      skills.value = (body.skills ?? []).filter((s) => typeof s?.id === "string");
      supported.value = true;
    } catch {
      supported.value = false;
    }
  }

  /** Skills whose id or name starts with (then contains) the query, for `@` completion. */
  function complete(query: string, limit = 8): SkillSummary[] {
    const q = query.toLowerCase();
    const starts = skills.value.filter((s) => s.id.toLowerCase().startsWith(q) || s.name.toLowerCase().startsWith(q));
    const contains = skills.value.filter((s) => !starts.includes(s) && (s.id.toLowerCase().includes(q) || s.name.toLowerCase().includes(q)));
    return [...starts, ...contains].slice(0, limit);
  }

  return { skills, supported, load, complete };
}
export type SkillsModel = ReturnType<typeof createSkillsModel>;

/** The MCP servers config, edited as JSON (its shape belongs to the daemon's `/api/mcp`). */
export function createMcpModel(api: Api) {
  const supported = signal(false, { name: "mcp.supported" });
  const json = signal("", { name: "mcp.json" });
  const error = signal<string | null>(null, { name: "mcp.error" });
  const saved = signal(false, { name: "mcp.saved" });

  async function load(): Promise<void> {
    try {
      json.value = JSON.stringify(await api.get<unknown>("/api/mcp"), null, 2);
      supported.value = true;
    } catch (loadError) {
      supported.value = false;
      if (!isMissingEndpoint(loadError)) error.value = errorMessage(loadError);
    }
  }

  async function save(text: string): Promise<void> {
    saved.value = false;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (parseError) {
      error.value = `Not valid JSON: ${errorMessage(parseError)}`;
      return;
    }
    try {
      json.value = JSON.stringify(await api.put<unknown>("/api/mcp", body), null, 2);
      error.value = null;
      saved.value = true;
    } catch (saveError) {
      error.value = errorMessage(saveError);
    }
  }

  return { supported, json, error, saved, load, save };
}
export type McpModel = ReturnType<typeof createMcpModel>;
