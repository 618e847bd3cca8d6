// Skills and MCP models against the daemon's real wire shapes (server/contracts/skills.ts, mcp.ts).
import { describe, expect, test } from "bun:test";
import type { McpConfigResponse } from "../../server/contracts/mcp.ts";
import type { SkillSummary } from "../../server/contracts/skills.ts";
import { createApi } from "../../web/api/client.ts";
import { createMcpModel, createSkillsModel } from "../../web/state/optional-features.ts";
import { fakeFetch } from "../support/web-fake-fetch.ts";

function skill(id: string, over: Partial<SkillSummary> = {}): SkillSummary {
  return { id, name: id, description: `${id} skill`, triggers: [], mode: "general", previewType: "md", source: "user", dir: `/skills/${id}`, usable: true, diagnostics: [], shadows: [], ...over };
}

function mcpResponse(servers: McpConfigResponse["servers"]): McpConfigResponse {
  return {
    scope: "user",
    path: "/data/mcp.json",
    servers,
    effective: servers.map((server) => ({ from: "user" as const, server })),
    diagnostics: [],
    agents: { supported: [{ id: "claude", name: "Claude Code", injection: "claude-mcp-json" }], unsupported: [{ id: "aider", name: "Aider" }] },
  };
}

describe("skills model", () => {
  test("lists the project's skills (?projectId=), once per project; unusable skills are not offered", async () => {
    const { fetch, calls } = fakeFetch({
      "GET /api/skills": (_init, url) =>
        Response.json({ skills: url.includes("projectId=p2") ? [skill("deck")] : [skill("brief"), skill("broken", { usable: false }), skill("web-brief", { name: "Web" })] }),
    });
    const model = createSkillsModel(createApi(fetch));
    await model.load("p1");
    await model.load("p1");
    expect(calls.map((c) => c.url)).toEqual(["/api/skills?projectId=p1"]);
    expect(model.supported.value).toBe(true);
    expect(model.complete("br").map((s) => s.id)).toEqual(["brief", "web-brief"]);
    await model.load("p2");
    expect(model.complete("").map((s) => s.id)).toEqual(["deck"]);
  });

  test("a daemon without /api/skills hides the feature", async () => {
    const model = createSkillsModel(createApi(fakeFetch({}).fetch));
    await model.load(null);
    expect(model.supported.value).toBe(false);
  });
});

describe("MCP model", () => {
  test("the editor holds only {servers}; Save PUTs that and shows the daemon's answer", async () => {
    const server = { name: "files", type: "stdio" as const, command: "mcp-files" };
    const { fetch, calls } = fakeFetch({
      "GET /api/mcp": () => Response.json(mcpResponse([])),
      "PUT /api/mcp": (init) => Response.json(mcpResponse(JSON.parse(String(init?.body)).servers)),
    });
    const model = createMcpModel(createApi(fetch));
    await model.load();
    expect(model.supported.value).toBe(true);
    expect(JSON.parse(model.json.value)).toEqual({ servers: [] });
    expect(model.config.value?.agents.unsupported).toEqual([{ id: "aider", name: "Aider" }]);

    await model.save(JSON.stringify({ servers: [server] }));
    expect(calls.at(-1)).toEqual({ method: "PUT", url: "/api/mcp", body: { servers: [server] } });
    expect(model.saved.value).toBe(true);
    expect(JSON.parse(model.json.value)).toEqual({ servers: [server] });
  });

  test("a refused entry keeps the message; bad JSON never leaves the page; 404 hides the section", async () => {
    const { fetch, calls } = fakeFetch({
      "GET /api/mcp": () => Response.json(mcpResponse([])),
      "PUT /api/mcp": () => Response.json({ error: { code: "BAD_REQUEST", message: "invalid request body: servers.0.command: a stdio server needs a command" } }, { status: 400 }),
    });
    const model = createMcpModel(createApi(fetch));
    await model.load();
    await model.save("{ not json");
    expect(model.error.value).toStartWith("Not valid JSON");
    expect(calls.filter((c) => c.method === "PUT")).toEqual([]);
    await model.save(JSON.stringify({ servers: [{ name: "x" }] }));
    expect(model.error.value).toContain("a stdio server needs a command");
    expect(model.saved.value).toBe(false);

    const missing = createMcpModel(createApi(fakeFetch({}).fetch));
    await missing.load();
    expect([missing.supported.value, missing.error.value]).toEqual([false, null]);
  });
});
