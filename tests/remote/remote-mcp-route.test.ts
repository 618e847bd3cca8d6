// Issue #21: a remote project's own MCP list is its `.od/mcp-config.json` where it lives. /api/mcp?projectId= reads
// and writes it there (what that project's runs forward), never a local path named after the URL.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { McpConfigResponse } from "../../server/contracts/mcp.ts";
import { mcpRoutes } from "../../server/http/mcp.ts";
import { baseAgentDefs } from "../../server/runtimes/registry.ts";
import { startTestApp } from "../support/app.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { memoryConsents } from "../support/mcp-consents.ts";
import { tempDir } from "../support/temp.ts";

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(() => sshd?.close());

async function setup(folderName: string, host = SSH_TEST_HOST) {
  const temp = tempDir("od-remote-mcp-");
  const projectDir = join(temp.path, folderName);
  mkdirSync(projectDir);
  const userPath = join(temp.path, "data", "mcp.json");
  const app = await startTestApp({
    modules: [mcpRoutes({ userPath, projectDirOf: () => `ssh://${host}${projectDir}`, defs: baseAgentDefs(), remote: { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir }, consents: memoryConsents() })],
  });
  return {
    app,
    projectDir,
    userPath,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      temp[Symbol.dispose]();
    },
  };
}

describe("/api/mcp for a project on another machine", () => {
  test("PUT writes the file there (0600, atomically), GET reads it back; a hostile folder name is plain data", async () => {
    await using s = await setup("it's $(touch pwned) `x`; *");
    const put = await s.app.json("PUT", "/api/mcp?projectId=p", { servers: [{ name: "there", command: "remote-mcp", args: ["--it's"] }] });
    expect(put.status).toBe(200);
    const file = join(s.projectDir, ".od", "mcp-config.json");
    expect(JSON.parse(readFileSync(file, "utf8")).servers).toEqual([{ name: "there", type: "stdio", command: "remote-mcp", args: ["--it's"] }]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(s.projectDir, ".od"))).toEqual(["mcp-config.json"]);
    const body = McpConfigResponse.parse(await (await s.app.call("/api/mcp?projectId=p")).json());
    expect(body).toMatchObject({ scope: "project", path: `ssh://${SSH_TEST_HOST}${s.projectDir}/.od/mcp-config.json`, diagnostics: [] });
    expect(body.servers.map((server) => server.name)).toEqual(["there"]);
    expect(existsSync(join(s.projectDir, "pwned"))).toBe(false);
  });

  test("a broken file there is a diagnostic; an unreachable host is REMOTE_UNREACHABLE on PUT", async () => {
    await using s = await setup("broken");
    mkdirSync(join(s.projectDir, ".od"));
    writeFileSync(join(s.projectDir, ".od", "mcp-config.json"), "{not json");
    const body = McpConfigResponse.parse(await (await s.app.call("/api/mcp?projectId=p")).json());
    expect(body.servers).toEqual([]);
    expect(body.diagnostics[0]).toContain("not valid JSON");
    await using down = await setup("down", "127.0.0.1:1");
    const put = await down.app.json("PUT", "/api/mcp?projectId=p", { servers: [] });
    expect(put.status).toBe(502);
    expect(((await put.json()) as { error: { code: string } }).error.code).toBe("REMOTE_UNREACHABLE");
  });
});
