/**
 * External MCP servers: `GET /api/mcp` / `PUT /api/mcp` edit the user list (`<data dir>/mcp.json`), or with
 * `?projectId=` the project's `.od/mcp-config.json` (where the project lives, for one on another machine). The
 * answer also says which agents can receive the servers and which cannot (the UI tells the user to configure MCP
 * in those agents' own config).
 */
import { Elysia } from "elysia";
import type { McpConfigFile, McpConfigResponse, McpConsentResponse } from "../contracts/mcp.ts";
import { projectServersHash } from "../mcp/project-consent.ts";
import type { McpConsentsRepo } from "../store/mcp-consents-repo.ts";
import { mergeMcpServers, readMcpFile, writeMcpFile, type McpList } from "../mcp/config-files.ts";
import { placeOf } from "../machines/machine-of.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import { projectMcpWhere, readProjectMcpList, writeProjectMcpList } from "../mcp/project-mcp-file.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";
import { HttpError, parseBody } from "./errors.ts";
import type { ProjectDirOf } from "./skills.ts";
import { mcpContract } from "./request-schemas.ts";

export type McpRouteDeps = {
  /** `<data dir>/mcp.json`. */
  userPath: string;
  projectDirOf: ProjectDirOf;
  defs: readonly Pick<RuntimeAgentDef, "id" | "name" | "externalMcpInjection">[];
  /** How projects on other machines are reached. */
  remote: RemoteContext;
  /** Which project server lists the person approved. */
  consents: Pick<McpConsentsRepo, "get" | "grant" | "revoke">;
  now?: () => number;
};

/** One list: where it is, and how it is read and written. */
type McpScope = { scope: "user" | "project"; path: string; read(): Promise<McpList>; write(file: McpConfigFile): Promise<void> };

export const mcpRoutes = (deps: McpRouteDeps) => {
  const scopeOf = (query: unknown): McpScope => {
    const { projectId } = parseBody(mcpContract().McpQuery, query ?? {});
    if (!projectId) return localScope("user", deps.userPath);
    const place = placeOf(deps.projectDirOf(projectId), deps.remote);
    return { scope: "project", path: projectMcpWhere(place), read: () => readProjectMcpList(place), write: (file) => writeProjectMcpList(place, file) };
  };
  const projectScope = (projectId: string) => scopeOf({ projectId });
  /** The project's servers as read now, on the project's machine. */
  const serversOf = async (projectId: string) => (await projectScope(projectId).read()).servers;
  /** What the person's consent says of `servers`. */
  const consentOf = (projectId: string, servers: McpConsentResponse["servers"]): McpConsentResponse => {
    const serversHash = projectServersHash(servers);
    const consent = deps.consents.get(projectId);
    const status = servers.length === 0 ? "none" : consent?.serversHash === serversHash ? "approved" : "needed";
    return { servers, serversHash, status, ...(consent ? { grantedAt: consent.grantedAt } : {}) };
  };
  return new Elysia({ name: "mcp" })
    // A project's own servers start programs: they reach runs once the person approved that exact list.
    .get("/api/projects/:id/mcp-consent", async ({ params }) => consentOf(params.id, await serversOf(params.id)))
    .post("/api/projects/:id/mcp-consent", async ({ params, body }) => {
      const { serversHash } = parseBody(mcpContract().GrantMcpConsentRequest, body);
      const servers = await serversOf(params.id);
      if (projectServersHash(servers) !== serversHash) {
        throw new HttpError(409, "MCP_CONFIG_CHANGED", "the project's .od/mcp-config.json changed since it was shown: review its servers again");
      }
      deps.consents.grant(params.id, serversHash, (deps.now ?? Date.now)());
      return consentOf(params.id, servers);
    })
    .delete("/api/projects/:id/mcp-consent", async ({ params }) => {
      const servers = await serversOf(params.id);
      deps.consents.revoke(params.id);
      return consentOf(params.id, servers);
    })
    .get("/api/mcp", ({ query }) => describe(deps, scopeOf(query)))
    .put("/api/mcp", async ({ query, body }) => {
      const scope = scopeOf(query);
      await scope.write(parseBody(mcpContract().PutMcpRequest, body));
      return describe(deps, scope);
    });
};

/** The user's own list, in the data dir. */
function localScope(scope: McpScope["scope"], path: string): McpScope {
  return { scope, path, read: async () => readMcpFile(path, { trustChecked: true }), write: async (file) => writeMcpFile(path, file) };
}

export async function describe(deps: McpRouteDeps, scope: McpScope): Promise<McpConfigResponse> {
  const own = await scope.read();
  const user = scope.scope === "project" ? readMcpFile(deps.userPath, { trustChecked: true }) : own;
  const effective = mergeMcpServers(user.servers, scope.scope === "project" ? own.servers : []);
  const supported: McpConfigResponse["agents"]["supported"] = [];
  const unsupported: McpConfigResponse["agents"]["unsupported"] = [];
  for (const def of deps.defs) {
    const mode = mcpContract().McpInjectionMode.safeParse(def.externalMcpInjection);
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
