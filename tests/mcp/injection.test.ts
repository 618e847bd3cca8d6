// The MCP injection plan per externalMcpInjection mode (pure parts; the run-level tests check what a CLI receives).
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "../../server/contracts/mcp.ts";
import { RunTempFolder } from "../../server/inputs/run-temp-folder.ts";
import { mergeEnvContent, planMcpInjection } from "../../server/mcp/injection.ts";
import { tempDir } from "../support/temp.ts";

const servers = [
  McpServer.parse({ name: "fs", command: "mcp-fs", args: ["--root", "/data"], env: { LEVEL: "debug" } }),
  McpServer.parse({ name: "web", type: "http", url: "https://mcp.example.test/", headers: { "x-key": "k" } }),
];

describe("planMcpInjection", () => {
  test("claude-mcp-json: a private config file with mcpServers, in the run's private folder, nothing else", () => {
    using temp = tempDir("od-mcp-");
    const folder = new RunTempFolder("run_1", temp.path);
    const plan = planMcpInjection({ name: "Claude Code", externalMcpInjection: "claude-mcp-json" }, servers, { folder });
    expect(plan.mcpConfigPath).toBe(join(folder.path(), "mcp.json"));
    expect(statSync(plan.mcpConfigPath!).mode & 0o777).toBe(0o600);
    expect(statSync(folder.path()).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(plan.mcpConfigPath!, "utf8"))).toEqual({
      mcpServers: {
        fs: { type: "stdio", command: "mcp-fs", args: ["--root", "/data"], env: { LEVEL: "debug" } },
        web: { type: "http", url: "https://mcp.example.test/", headers: { "x-key": "k" } },
      },
    });
    expect(plan.transportServers).toEqual([]);
  });

  test("acp-merge: servers go to the transport", () => {
    const plan = planMcpInjection({ name: "Kimi", externalMcpInjection: "acp-merge" }, servers, {});
    expect(plan.transportServers.map((s) => s.name)).toEqual(["fs", "web"]);
    expect(plan.mcpConfigPath).toBeUndefined();
  });

  test("opencode-env-content / mimo-env-content: an mcp block in the env var", () => {
    for (const [mode, variable] of [["opencode-env-content", "OPENCODE_CONFIG_CONTENT"], ["mimo-env-content", "MIMOCODE_CONFIG_CONTENT"]] as const) {
      const env: Record<string, string> = {};
      planMcpInjection({ name: "x", externalMcpInjection: mode }, servers, {}).applyEnv(env);
      expect(JSON.parse(env[variable]!)).toEqual({
        mcp: {
          fs: { type: "local", command: ["mcp-fs", "--root", "/data"], environment: { LEVEL: "debug" }, enabled: true },
          web: { type: "remote", url: "https://mcp.example.test/", headers: { "x-key": "k" }, enabled: true },
        },
      });
    }
  });

  test("no injection: a note telling the user to configure MCP in the agent itself", () => {
    const plan = planMcpInjection({ name: "Aider" }, servers, {});
    expect(plan.notes).toEqual(["Aider cannot receive MCP servers from od (fs, web not forwarded); configure MCP in the agent's own config"]);
  });

  test("an unwritable temp folder is a note, not a crash", () => {
    const plan = planMcpInjection({ name: "Claude", externalMcpInjection: "claude-mcp-json" }, servers, { folder: new RunTempFolder("r", "/nonexistent-od-dir/x") });
    expect(plan.mcpConfigPath).toBeUndefined();
    expect(plan.notes[0]).toContain("could not write the MCP config for Claude");
  });

  test("no servers: nothing at all, no file written", () => {
    using temp = tempDir("od-mcp-");
    const plan = planMcpInjection({ name: "Claude", externalMcpInjection: "claude-mcp-json" }, [], { folder: new RunTempFolder("r", temp.path) });
    expect(plan.mcpConfigPath).toBeUndefined();
    expect(readdirSync(temp.path)).toEqual([]);
  });
});

describe("mergeEnvContent", () => {
  test("keeps the user's other settings and their own mcp entries win on a name clash", () => {
    const env = { OPENCODE_CONFIG_CONTENT: JSON.stringify({ theme: "dark", mcp: { fs: { type: "local", command: ["mine"] } } }) };
    expect(mergeEnvContent(env, "OPENCODE_CONFIG_CONTENT", { fs: { command: ["ours"] }, web: { url: "u" } })).toEqual([]);
    expect(JSON.parse(env.OPENCODE_CONFIG_CONTENT)).toEqual({ theme: "dark", mcp: { fs: { type: "local", command: ["mine"] }, web: { url: "u" } } });
  });

  test("a non-JSON value is left untouched, with a note", () => {
    const env = { OPENCODE_CONFIG_CONTENT: "not json" };
    expect(mergeEnvContent(env, "OPENCODE_CONFIG_CONTENT", { a: {} })[0]).toContain("not JSON");
    expect(env.OPENCODE_CONFIG_CONTENT).toBe("not json");
  });
});
