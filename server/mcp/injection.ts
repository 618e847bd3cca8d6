/**
 * How the run's MCP servers reach one agent, per its def's `externalMcpInjection`:
 * - `claude-mcp-json`: a generated config file in the run's private temp folder (inputs/run-temp-folder.ts), passed
 *   with the def's `--mcp-config` (via `RuntimeContext.mcpConfigPath`); the user's own `.mcp.json` is never written.
 * - `acp-merge`: the transport's `mcpServers` option (session/new), which handles env format and version gates.
 * - `opencode-env-content` / `mimo-env-content`: an `mcp` block in OPENCODE_CONFIG_CONTENT / MIMOCODE_CONFIG_CONTENT,
 *   merged into any value the user already set (their entries win on a name clash).
 * Defs without injection get nothing, and the run says so.
 */
import type { McpServer } from "../contracts/mcp.ts";
import type { McpServerConfig } from "../runtimes/protocols/types.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";
import type { RunTempFolder } from "../inputs/run-temp-folder.ts";

export type McpInjectionPlan = {
  /** For protocol transports (`acp-merge`). */
  transportServers: McpServerConfig[];
  /** Generated config file for `claude-mcp-json`, in the run's temp folder (removed with it when the run ends). */
  mcpConfigPath?: string;
  /** Adds the env-content config to the child's env; returns notes for the run's diagnostics. */
  applyEnv(env: Record<string, string>): string[];
  /** Notes for the run (servers not forwarded, …). */
  notes: string[];
};

const ENV_CONTENT_VAR = { "opencode-env-content": "OPENCODE_CONFIG_CONTENT", "mimo-env-content": "MIMOCODE_CONFIG_CONTENT" } as const;

const NOTHING: McpInjectionPlan = { transportServers: [], applyEnv: () => [], notes: [] };

/**
 * `folder`: the run's private temp folder, where a config file goes (made only when one is written); a remote run
 * has none here, its config file is staged there.
 */
export function planMcpInjection(def: Pick<RuntimeAgentDef, "name" | "externalMcpInjection">, servers: McpServer[], options: { folder?: Pick<RunTempFolder, "file" | "write"> }): McpInjectionPlan {
  if (servers.length === 0) return NOTHING;
  const mode = def.externalMcpInjection;
  switch (mode) {
    case "claude-mcp-json": {
      let path: string;
      try {
        if (!options.folder) throw new Error("no local folder for it");
        path = options.folder.file("mcp.json");
        options.folder.write(path, JSON.stringify(claudeMcpConfig(servers), null, 2));
      } catch (error) {
        return { ...NOTHING, notes: [`could not write the MCP config for ${def.name} (${(error as Error).message}); servers not forwarded`] };
      }
      return { ...NOTHING, mcpConfigPath: path };
    }
    case "acp-merge":
      return { ...NOTHING, transportServers: servers.map(toTransportServer) };
    case "opencode-env-content":
    case "mimo-env-content": {
      const variable = ENV_CONTENT_VAR[mode];
      return { ...NOTHING, applyEnv: (env) => mergeEnvContent(env, variable, opencodeMcpBlock(servers)) };
    }
    default:
      return {
        ...NOTHING,
        notes: [`${def.name} cannot receive MCP servers from od (${servers.map((s) => s.name).join(", ")} not forwarded); configure MCP in the agent's own config`],
      };
  }
}

/** Claude Code / CodeBuddy `--mcp-config` file: `{mcpServers: {name: {...}}}`. */
export function claudeMcpConfig(servers: McpServer[]): { mcpServers: Record<string, Record<string, unknown>> } {
  const mcpServers: Record<string, Record<string, unknown>> = {};
  for (const server of servers) {
    mcpServers[server.name] =
      server.type === "stdio"
        ? { type: "stdio", command: server.command, args: server.args ?? [], env: server.env ?? {} }
        : { type: server.type, url: server.url, ...(server.headers ? { headers: server.headers } : {}) };
  }
  return { mcpServers };
}

/** OpenCode's config `mcp` block: local servers take `command: [cmd, ...args]` and `environment`. */
export function opencodeMcpBlock(servers: McpServer[]): Record<string, Record<string, unknown>> {
  const block: Record<string, Record<string, unknown>> = {};
  for (const server of servers) {
    block[server.name] =
      server.type === "stdio"
        ? { type: "local", command: [server.command, ...(server.args ?? [])], ...(server.env ? { environment: server.env } : {}), enabled: true }
        : { type: "remote", url: server.url, ...(server.headers ? { headers: server.headers } : {}), enabled: true };
  }
  return block;
}

/** Merges `{mcp: block}` into the JSON already in `env[variable]`; an existing non-JSON value is left alone. */
export function mergeEnvContent(env: Record<string, string>, variable: string, block: Record<string, unknown>): string[] {
  const existing = env[variable];
  let base: Record<string, unknown> = {};
  if (existing !== undefined && existing.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch {
      return [`${variable} is set but is not JSON; MCP servers were not added to it`];
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return [`${variable} is not a JSON object; MCP servers were not added to it`];
    base = parsed as Record<string, unknown>;
  }
  const theirs = base.mcp && typeof base.mcp === "object" && !Array.isArray(base.mcp) ? (base.mcp as Record<string, unknown>) : {};
  env[variable] = JSON.stringify({ ...base, mcp: { ...block, ...theirs } });
  return [];
}

function toTransportServer(server: McpServer): McpServerConfig {
  return {
    name: server.name,
    type: server.type,
    ...(server.command ? { command: server.command } : {}),
    ...(server.args ? { args: server.args } : {}),
    ...(server.env ? { env: server.env } : {}),
    ...(server.url ? { url: server.url } : {}),
    ...(server.headers ? { headers: server.headers } : {}),
  };
}
