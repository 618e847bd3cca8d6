/**
 * External MCP servers: `GET /api/mcp` / `PUT /api/mcp` edit the user list (`<data dir>/mcp.json`), or with
 * `?projectId=` the project's `.od/mcp-config.json`. The answer also says which agents can receive the servers and
 * which cannot (the UI tells the user to configure MCP in those agents' own config).
 */
import { Elysia } from "elysia";
import { McpInjectionMode, McpQuery, PutMcpRequest, type McpConfigResponse } from "../contracts/mcp.ts";
import { mergeMcpServers, projectMcpPath, readMcpFile, writeMcpFile } from "../mcp/config-files.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";
import { parseBody } from "./errors.ts";
import type { ProjectDirOf } from "./skills.ts";

export type McpRouteDeps = {
  /** `<data dir>/mcp.json`. */
  userPath: string;
  projectDirOf: ProjectDirOf;
  defs: readonly Pick<RuntimeAgentDef, "id" | "name" | "externalMcpInjection">[];
};

export const mcpRoutes = (deps: McpRouteDeps) => {
  const scopeOf = (query: unknown) => {
    const { projectId } = parseBody(McpQuery, query ?? {});
    return projectId ? { scope: "project" as const, path: projectMcpPath(deps.projectDirOf(projectId)) } : { scope: "user" as const, path: deps.userPath };
  };
  return new Elysia({ name: "mcp" })
    .get("/api/mcp", ({ query }) => describe(deps, scopeOf(query)))
    .put("/api/mcp", ({ query, body }) => {
      const scope = scopeOf(query);
      writeMcpFile(scope.path, parseBody(PutMcpRequest, body));
      return describe(deps, scope);
    });
};

export function describe(deps: McpRouteDeps, scope: { scope: "user" | "project"; path: string }): McpConfigResponse {
  const own = readMcpFile(scope.path);
  const user = scope.scope === "project" ? readMcpFile(deps.userPath) : own;
  const effective = mergeMcpServers(user.servers, scope.scope === "project" ? own.servers : []);
  const supported: McpConfigResponse["agents"]["supported"] = [];
  const unsupported: McpConfigResponse["agents"]["unsupported"] = [];
  for (const def of deps.defs) {
    const mode = McpInjectionMode.safeParse(def.externalMcpInjection);
    if (mode.success) supported.push({ id: def.id, name: def.name, injection: mode.data });
    else unsupported.push({ id: def.id, name: def.name });
  }
  return {
    scope: scope.scope,
    path: scope.path,
    servers: own.servers,
    effective,
    diagnostics: scope.scope === "project" ? [...user.diagnostics, ...own.diagnostics] : own.diagnostics,
    agents: { supported, unsupported },
  };
}
