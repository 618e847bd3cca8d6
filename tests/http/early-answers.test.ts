// The daemon's early answers (before the engine has loaded) are the engine's own answers, byte for byte.
import { describe, expect, test } from "bun:test";
import { earlyAnswers } from "../../server/http/early-answers.ts";
import { APP_CONFIG_FORMAT } from "../../server/store/app-config-row.ts";
import { startTestApp, TEST_TOKEN, ORIGIN } from "../support/app.ts";

type Seen = { status: number; headers: [string, string][]; body: string };

async function seen(response: Response): Promise<Seen> {
  return { status: response.status, headers: [...response.headers].sort(), body: await response.text() };
}

const request = (path: string, init: RequestInit = {}) =>
  new Request(`${ORIGIN}${path}`, { ...init, headers: { authorization: `Bearer ${TEST_TOKEN}`, ...(init.headers as Record<string, string>) } });

describe("early answers", () => {
  test("GET /api/app-config is answered early, as the engine answers it, with nothing saved, a saved config, and one a newer od wrote", async () => {
    await using t = await startTestApp();
    const early = earlyAnswers(t.store.db);
    const compare = async (path: string) => {
      const answer = early(request(path));
      expect(answer).toBeDefined();
      expect(await seen(await answer!)).toEqual(await seen(await t.app.handle(request(path))));
    };
    await compare("/api/app-config");
    expect(await (await early(request("/api/app-config"))!).json()).toEqual({ config: {} });

    await t.json("PUT", "/api/app-config", { theme: "dark", agentCliEnv: { codex: { CODEX_HOME: "/tmp/x" } } });
    await compare("/api/app-config");
    await compare("/api/app-config?ignored=1");
    expect((await (await early(request("/api/app-config"))!).json()).config.theme).toBe("dark");

    // A key this od does not know, in a newer od's format: the repo keeps nothing rather than failing, and so does the
    // early answer.
    t.store.db.prepare("UPDATE app_config SET json = ?, format = ? WHERE id = 1").run(JSON.stringify({ theme: "dark", fromTheFuture: true }), APP_CONFIG_FORMAT + 1);
    await compare("/api/app-config");
    expect(await (await early(request("/api/app-config"))!).json()).toEqual({ config: {} });
  });

  test("every other request is left to the engine", async () => {
    await using t = await startTestApp();
    const early = earlyAnswers(t.store.db);
    const json = { "content-type": "application/json" };
    for (const [path, init] of [
      ["/api/app-config", { method: "PUT", headers: json, body: JSON.stringify({ theme: "dark" }) }],
      ["/api/app-config", { method: "HEAD" }],
      ["/api/app-config/", {}],
      ["/api/agents", {}],
      ["/api/health", {}],
      ["/", {}],
    ] as const) {
      expect([path, init.method ?? "GET", early(request(path, init))]).toEqual([path, init.method ?? "GET", undefined]);
    }
  });
});
