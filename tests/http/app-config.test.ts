import { describe, expect, test } from "bun:test";
import { startTestApp } from "../support/app.ts";
import { tempDir } from "../support/temp.ts";

describe("app-config", () => {
  test("starts empty", async () => {
    await using t = await startTestApp();
    expect(await (await t.call("/api/app-config")).json()).toEqual({ config: {} });
  });

  test("a partial PUT merges per agent and returns the whole config", async () => {
    await using t = await startTestApp();
    await t.json("PUT", "/api/app-config", { agentId: "claude", agentModels: { claude: { model: "opus" } } });
    const res = await t.json("PUT", "/api/app-config", {
      agentModels: { codex: { model: "gpt-5.5", reasoning: "high" } },
      agentCliEnv: { codex: { CODEX_HOME: "/tmp/x" } },
      theme: "dark",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      config: {
        agentId: "claude",
        agentModels: { claude: { model: "opus" }, codex: { model: "gpt-5.5", reasoning: "high" } },
        agentCliEnv: { codex: { CODEX_HOME: "/tmp/x" } },
        theme: "dark",
      },
    });
  });

  test("null removes one agent's entry", async () => {
    await using t = await startTestApp();
    await t.json("PUT", "/api/app-config", { agentModels: { claude: { model: "opus" }, codex: { model: "o" } } });
    const res = await t.json("PUT", "/api/app-config", { agentModels: { claude: null } });
    expect((await res.json()).config.agentModels).toEqual({ codex: { model: "o" } });
  });

  test("unknown keys are a 400 naming the key", async () => {
    await using t = await startTestApp();
    const res = await t.json("PUT", "/api/app-config", { nope: 1 });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.error.message).toContain("nope");
  });

  test("bad types are a 400 with the zod issue path", async () => {
    await using t = await startTestApp();
    const res = await t.json("PUT", "/api/app-config", { agentModels: { claude: { model: 5 } } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.issues[0].path).toEqual(["agentModels", "claude", "model"]);
  });

  test("an env key that is not a variable name is refused", async () => {
    await using t = await startTestApp();
    const res = await t.json("PUT", "/api/app-config", { agentCliEnv: { claude: { "BAD KEY": "x" } } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.issues[0].path).toEqual(["agentCliEnv", "claude", "BAD KEY"]);
  });

  test("probe limits per machine merge by machine key; null removes one; a limit that is not whole milliseconds is refused", async () => {
    await using t = await startTestApp();
    await t.json("PUT", "/api/app-config", { machineProbeTimeouts: { local: { versionMs: 20_000 }, "ssh://box": { helpMs: 30_000 } } });
    const res = await t.json("PUT", "/api/app-config", { machineProbeTimeouts: { local: null, "docker://c": { modelsMs: 5000 } } });
    expect((await res.json()).config.machineProbeTimeouts).toEqual({ "ssh://box": { helpMs: 30_000 }, "docker://c": { modelsMs: 5000 } });
    for (const bad of [{ versionMs: 1.5 }, { versionMs: -1 }, { sandboxMs: 10 }]) {
      const refused = await t.json("PUT", "/api/app-config", { machineProbeTimeouts: { local: bad } });
      expect(refused.status).toBe(400);
    }
  });

  test("malformed JSON is a 400", async () => {
    await using t = await startTestApp();
    const res = await t.call("/api/app-config", { method: "PUT", body: "{nope", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("INVALID_JSON");
  });

  test("survives a reopened store", async () => {
    using dir = tempDir();
    {
      await using t = await startTestApp({ dataDir: dir.path });
      await t.json("PUT", "/api/app-config", { agentId: "codex", theme: "light" });
    }
    await using t = await startTestApp({ dataDir: dir.path });
    expect(await (await t.call("/api/app-config")).json()).toEqual({ config: { agentId: "codex", theme: "light" } });
  });
});
