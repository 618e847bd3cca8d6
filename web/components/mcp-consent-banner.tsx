/**
 * Asks once whether this project's own MCP servers may start: each server's command line (or URL) as it would run,
 * Allow, and Not now. Until allowed, runs leave them out (and say so).
 */
import type { McpServer } from "../../server/contracts/mcp.ts";
import type { McpConsentModel } from "../state/mcp-consent.ts";

function commandLine(server: McpServer): string {
  if (server.type !== "stdio") return `${server.type} ${server.url ?? ""}`;
  const env = Object.keys(server.env ?? {});
  return [env.length ? `(env: ${env.join(", ")})` : "", server.command ?? "", ...(server.args ?? [])].filter(Boolean).join(" ");
}

export function McpConsentBanner({ model }: { model: McpConsentModel }) {
  const consent = model.consent.value;
  if (!consent || consent.status !== "needed" || model.dismissed.value === consent.serversHash) return null;
  return (
    <section class="mcp-consent" data-testid="mcp-consent" aria-label="This project's MCP servers">
      <p>
        <strong>This project asks to start {consent.servers.length === 1 ? "an MCP server" : `${consent.servers.length} MCP servers`}</strong> (from its{" "}
        <code>.od/mcp-config.json</code>{consent.grantedAt ? ", changed since you allowed it" : ""}). They run as you, with each prompt. Start them only if you trust this repository:
      </p>
      <ul>
        {consent.servers.map((server) => (
          <li key={server.name}>
            <strong>{server.name}</strong> <code data-testid="mcp-consent-command">{commandLine(server)}</code>
          </li>
        ))}
      </ul>
      <div class="mcp-consent-actions">
        <button type="button" class="primary" data-testid="mcp-consent-allow" onClick={() => void model.approve()}>
          Allow these servers
        </button>
        <button type="button" data-testid="mcp-consent-not-now" onClick={() => model.notNow()}>
          Not now
        </button>
      </div>
      {model.error.value && <p class="error" role="alert">{model.error.value}</p>}
    </section>
  );
}
