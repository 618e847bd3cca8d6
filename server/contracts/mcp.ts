/**
 * External MCP servers od forwards to agents: a user-level list (`<data dir>/mcp.json`) and a per-project one
 * (`<project>/.od/mcp-config.json`, overriding user entries by name). Both files hold `{ "servers": [...] }`.
 */
import { z } from "./zod.ts";

const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One MCP server: `stdio` (a command od's agent starts) or `http`/`sse` (a URL it connects to). */
export const McpServer = z
  .strictObject({
    /** Unique within a file; a project entry replaces the user entry of the same name. */
    name: z.string().regex(SERVER_NAME, "use letters, digits, '.', '_' or '-' (max 64)"),
    type: z.enum(["stdio", "http", "sse"]).default("stdio"),
    /** stdio: the executable. */
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    /** stdio: extra environment for the server process. */
    env: z.record(z.string().regex(ENV_KEY, "not a valid environment variable name"), z.string()).optional(),
    /** http/sse: the endpoint. */
    url: z.string().regex(/^https?:\/\/\S+$/, "must be an http(s) URL").optional(),
    headers: z.record(z.string().min(1), z.string()).optional(),
    /** false keeps the entry without forwarding it. */
    enabled: z.boolean().optional(),
  })
  .superRefine((server, ctx) => {
    if (server.type === "stdio" && !server.command) ctx.addIssue({ code: "custom", path: ["command"], message: "a stdio server needs a command" });
    if (server.type !== "stdio" && !server.url) ctx.addIssue({ code: "custom", path: ["url"], message: `an ${server.type} server needs a url` });
  });
export type McpServer = z.infer<typeof McpServer>;

const uniqueNames = (servers: McpServer[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  servers.forEach((server, index) => {
    if (seen.has(server.name)) ctx.addIssue({ code: "custom", path: ["servers", index, "name"], message: `duplicate server name '${server.name}'` });
    seen.add(server.name);
  });
};

/** The file format of both lists. */
export const McpConfigFile = z.object({ servers: z.array(McpServer) }).superRefine((file, ctx) => uniqueNames(file.servers, ctx));
export type McpConfigFile = z.infer<typeof McpConfigFile>;

/** `PUT /api/mcp` (`?projectId=` for the project file). Read-only keys a GET returned are ignored. */
export const PutMcpRequest = McpConfigFile;

export const McpQuery = z.object({ projectId: z.string().min(1).optional() });

/** How an agent receives external MCP servers (`externalMcpInjection` of its def). */
export const McpInjectionMode = z.enum(["claude-mcp-json", "acp-merge", "opencode-env-content", "mimo-env-content"]);

/** `GET /api/mcp` and the answer of `PUT /api/mcp`. */
export const McpConfigResponse = z.object({
  scope: z.enum(["user", "project"]),
  /** The file this scope reads and writes. */
  path: z.string(),
  servers: z.array(McpServer),
  /** What a run in this scope receives (project entries override user entries by name; disabled ones left out). */
  effective: z.array(z.object({ from: z.enum(["user", "project"]), server: McpServer })),
  /** Problems reading the files (invalid JSON, invalid entries — those are left out). */
  diagnostics: z.array(z.string()),
  agents: z.object({
    /** Agents od forwards the servers to, and how. */
    supported: z.array(z.object({ id: z.string(), name: z.string(), injection: McpInjectionMode })),
    /** Agents od cannot forward servers to: configure MCP in the agent's own config. */
    unsupported: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
});
export type McpConfigResponse = z.infer<typeof McpConfigResponse>;

/**
 * `GET /api/projects/:id/mcp-consent`: the project's own servers (`.od/mcp-config.json`), which start only once the
 * person approved exactly this list for this project. `serversHash` is what `POST` approves.
 */
export const McpConsentResponse = z.object({
  servers: z.array(McpServer),
  serversHash: z.string(),
  /** `approved`: this list may start; `needed`: it may not yet (never approved, or changed since); `none`: no servers. */
  status: z.enum(["approved", "needed", "none"]),
  /** When the current consent was given (absent without one; a consent to an older list is kept until replaced). */
  grantedAt: z.number().optional(),
});
export type McpConsentResponse = z.infer<typeof McpConsentResponse>;

/** `POST /api/projects/:id/mcp-consent`: approve the list with this hash (the one the person saw). */
export const GrantMcpConsentRequest = z.object({ serversHash: z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 hex digest") });
