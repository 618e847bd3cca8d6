// /api/mcp: the user list and a project's list, validated writes, and which agents can receive the servers.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { McpConfigResponse } from "../../server/contracts/mcp.ts";
import { HttpError } from "../../server/http/errors.ts";
import { mcpRoutes } from "../../server/http/mcp.ts";
import { baseAgentDefs } from "../../server/runtimes/registry.ts";
import { startTestApp } from "../support/app.ts";
import { memoryConsents } from "../support/mcp-consents.ts";
import { tempDir } from "../support/temp.ts";

async function setup() {
  const temp = tempDir("od-http-mcp-");
  const projectDir = join(temp.path, "project");
  mkdirSync(projectDir);
  const userPath = join(temp.path, "data", "mcp.json");
  const projectDirOf = (id: string) => {
    if (id !== "prj_1") throw new HttpError(404, "PROJECT_NOT_FOUND", `no project ${id}`);
    return projectDir;
  };
  const app = await startTestApp({ modules: [mcpRoutes({ userPath, projectDirOf, defs: baseAgentDefs(), remote: { env: {} }, consents: memoryConsents() })] });
  return {
    app,
    userPath,
    projectDir,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      temp[Symbol.dispose]();
    },
  };
}

const get = async (s: Awaited<ReturnType<typeof setup>>, path: string) => McpConfigResponse.parse(await (await s.app.call(path)).json());

test("GET on a fresh install: empty list, and every def is sorted into supported or unsupported", async () => {
  await using s = await setup();
  const body = await get(s, "/api/mcp");
  expect(body).toMatchObject({ scope: "user", path: s.userPath, servers: [], effective: [], diagnostics: [] });
  expect(body.agents.supported).toEqual(expect.arrayContaining([{ id: "claude", name: "Claude Code", injection: "claude-mcp-json" }]));
  expect(body.agents.unsupported.map((a) => a.id)).toContain("aider");
  expect(body.agents.supported.length + body.agents.unsupported.length).toBe(baseAgentDefs().length);
  for (const def of baseAgentDefs()) expect(body.agents.unsupported.some((a) => a.id === def.id)).toBe(!def.externalMcpInjection);
});

test("PUT writes the user file (the GET answer can be sent back as is); the project scope overrides by name", async () => {
  await using s = await setup();
  const put = await s.app.json("PUT", "/api/mcp", { servers: [{ name: "fs", command: "mcp-fs" }, { name: "web", type: "http", url: "https://mcp.example.test/" }] });
  expect(put.status).toBe(200);
  const user = McpConfigResponse.parse(await put.json());
  expect(JSON.parse(readFileSync(s.userPath, "utf8")).servers.map((x: { name: string }) => x.name)).toEqual(["fs", "web"]);
  expect((await s.app.json("PUT", "/api/mcp", user)).status).toBe(200); // echoing the GET shape back is fine

  await s.app.json("PUT", "/api/mcp?projectId=prj_1", { servers: [{ name: "fs", command: "project-fs" }] });
  expect(existsSync(join(s.projectDir, ".od", "mcp-config.json"))).toBe(true);
  const project = await get(s, "/api/mcp?projectId=prj_1");
  expect(project.servers.map((x) => x.name)).toEqual(["fs"]);
  expect(project.effective.map((e) => [e.server.name, e.from, e.server.command ?? e.server.url])).toEqual([
    ["fs", "project", "project-fs"],
    ["web", "user", "https://mcp.example.test/"],
  ]);
});

test("PUT rejects invalid servers with the path of the problem; unknown project → 404", async () => {
  await using s = await setup();
  const response = await s.app.json("PUT", "/api/mcp", { servers: [{ name: "ok", command: "x" }, { name: "ok", command: "y" }] });
  expect(response.status).toBe(400);
  expect(((await response.json()) as { error: { issues: { path: unknown[] }[] } }).error.issues[0]!.path).toEqual(["servers", 1, "name"]);
  expect((await s.app.json("PUT", "/api/mcp", { servers: [{ name: "s", type: "sse" }] })).status).toBe(400);
  expect((await s.app.call("/api/mcp?projectId=nope")).status).toBe(404);
  expect(existsSync(s.userPath)).toBe(false);
});

test("a project's own servers: consent to exactly the list shown, asked again after a change, taken back; bad input is typed", async () => {
  await using s = await setup();
  const consent = async () => (await s.app.call("/api/projects/prj_1/mcp-consent")).json() as Promise<{ status: string; serversHash: string; servers: { name: string }[]; grantedAt?: number }>;
  expect(await consent()).toMatchObject({ status: "none", servers: [] });

  mkdirSync(join(s.projectDir, ".od"));
  writeFileSync(join(s.projectDir, ".od", "mcp-config.json"), JSON.stringify({ servers: [{ name: "leak", command: "sh", args: ["-c", "true"] }] }));
  const shown = await consent();
  expect(shown).toMatchObject({ status: "needed", servers: [{ name: "leak", command: "sh", args: ["-c", "true"] }] });
  expect(shown.serversHash).toMatch(/^[0-9a-f]{64}$/);

  const granted = await s.app.json("POST", "/api/projects/prj_1/mcp-consent", { serversHash: shown.serversHash });
  expect(granted.status).toBe(200);
  expect(await granted.json()).toMatchObject({ status: "approved", grantedAt: expect.any(Number) });

  // The file changes after it was shown: approving what was shown is refused, and the new list needs consent.
  writeFileSync(join(s.projectDir, ".od", "mcp-config.json"), JSON.stringify({ servers: [{ name: "leak", command: "sh", args: ["-c", "curl x"] }] }));
  expect((await consent()).status).toBe("needed");
  const stale = await s.app.json("POST", "/api/projects/prj_1/mcp-consent", { serversHash: shown.serversHash });
  expect(stale.status).toBe(409);
  expect(((await stale.json()) as { error: { code: string } }).error.code).toBe("MCP_CONFIG_CHANGED");

  const now = await consent();
  expect((await s.app.json("POST", "/api/projects/prj_1/mcp-consent", { serversHash: now.serversHash })).status).toBe(200);
  const revoked = await s.app.json("DELETE", "/api/projects/prj_1/mcp-consent", {});
  expect(await revoked.json()).toMatchObject({ status: "needed" });
  expect((await consent()).status).toBe("needed");

  expect((await s.app.json("POST", "/api/projects/prj_1/mcp-consent", { serversHash: "nope" })).status).toBe(400);
  expect((await s.app.call("/api/projects/prj_2/mcp-consent")).status).toBe(404);
});
