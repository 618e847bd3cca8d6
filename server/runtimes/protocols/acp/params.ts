/**
 * Builders for the params we send to ACP agents: initialize, the mcpServers list of session/new|load, and the prompt
 * content blocks. Pure functions.
 */
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { McpServerConfig, TransportDefFacts } from "../types.ts";

/** ACP protocol version we speak. */
export const ACP_PROTOCOL_VERSION = 1;

/** Params of `initialize`: no client fs/terminal, so agents use their own tools. */
export function initializeParams(): Record<string, unknown> {
  return {
    protocolVersion: ACP_PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "open-design", version: "runtime-adapter" },
  };
}

/**
 * The `mcpServers` array for session/new|load. `env` is `[{name,value}]` or a map per the def; stdio servers are
 * withheld when the agent's version is at or past `acpStdioMcpRemovedInVersion`.
 */
export function acpMcpServers(
  servers: McpServerConfig[],
  def: TransportDefFacts,
  agentVersion: string | null,
): { servers: Record<string, unknown>[]; withheld: string[] } {
  const stdioRemoved =
    def.acpStdioMcpRemovedInVersion !== undefined &&
    agentVersion !== null &&
    compareVersions(agentVersion, def.acpStdioMcpRemovedInVersion) >= 0;
  const out: Record<string, unknown>[] = [];
  const withheld: string[] = [];
  for (const server of servers) {
    const type = server.type ?? "stdio";
    if (type === "stdio") {
      if (stdioRemoved || !server.command) {
        withheld.push(server.name);
        continue;
      }
      const env = server.env ?? {};
      out.push({
        name: server.name,
        command: server.command,
        args: server.args ?? [],
        env: def.acpMcpEnvFormat === "map" ? { ...env } : Object.entries(env).map(([name, value]) => ({ name, value })),
      });
    } else {
      if (!server.url) {
        withheld.push(server.name);
        continue;
      }
      const headers = Object.entries(server.headers ?? {}).map(([name, value]) => ({ name, value }));
      out.push({ type, name: server.name, url: server.url, headers });
    }
  }
  return { servers: out, withheld };
}

const IMAGE_MIME: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
};

/** MIME type from a file extension (undefined when unknown). */
export function imageMimeType(path: string): string | undefined {
  const extension = path.split(".").pop()?.toLowerCase() ?? "";
  return IMAGE_MIME[extension];
}

/** `session/prompt` content: the text, then one `resource_link` per image (raw path or `file://` URL). */
export function promptBlocks(prompt: string, imagePaths: string[], format: TransportDefFacts["acpImagePathFormat"]): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [{ type: "text", text: prompt }];
  for (const path of imagePaths) {
    const mimeType = imageMimeType(path);
    const uri = format === "file-url" ? pathToFileURL(path).href : path;
    blocks.push({ type: "resource_link", uri, name: basename(path), ...(mimeType ? { mimeType } : {}) });
  }
  return blocks;
}

/**
 * Compares dotted numeric versions (`0.37.0` vs `0.36.2`); non-numeric parts and prerelease tags are ignored.
 * Returns <0, 0 or >0.
 */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => (v.match(/\d+(?:\.\d+)*/)?.[0] ?? "0").split(".").map(Number);
  const left = parse(a);
  const right = parse(b);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const diff = (left[index] ?? 0) - (right[index] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
