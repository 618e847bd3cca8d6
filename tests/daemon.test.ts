// The daemon shell: up at once, health through the guard while the engine loads, everything else after it.
import { describe, expect, spyOn, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { startDaemon, type HttpServe } from "../server/daemon.ts";
import { openBunSqlite } from "../server/platform/sqlite-bun.ts";
import { Store } from "../server/store/store.ts";
import { tempDir } from "./support/temp.ts";

function fakeServe() {
  let handler: ((request: Request) => Response | Promise<Response>) | undefined;
  const serve: HttpServe = ({ fetch }) => {
    handler = fetch;
    return { port: 40123, stop: async () => {} };
  };
  return { serve, call: (path: string, init?: RequestInit) => Promise.resolve(handler!(new Request(`http://127.0.0.1:40123${path}`, init))) };
}

describe("startDaemon", () => {
  test("health answers before the engine is loaded (ready: false) and through the engine after (ready: true)", async () => {
    using data = tempDir("od-daemon-");
    const http = fakeServe();
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: data.path, token: "t", openSqlite: openBunSqlite, serve: http.serve, env: { PATH: "/nonexistent" } });
    const early = await (await http.call("/api/health")).json();
    expect(early).toEqual({ ok: true, version: expect.any(String), ready: false });
    expect((await http.call("/api/health", { headers: { host: "evil.example:40123" } })).status).toBe(403); // guard applies early too
    await daemon.ready;
    expect(await (await http.call("/api/health")).json()).toEqual({ ok: true, version: expect.any(String), ready: true });
    const config = await http.call("/api/app-config", { headers: { authorization: "Bearer t" } });
    expect(await config.json()).toEqual({ config: {} });
    expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:40123\/\?token=[\w-]{32}$/);
    expect(daemon.url).not.toContain("token=t&");
    await daemon.stop();
  });

  test("once start-up is over (engine loaded, agents detected) the JIT compiles hot code as usual again", async () => {
    // The compiled binary starts with a reluctant JIT (scripts/build-binary.ts); left so, a long run stays slow.
    const setPolicy = spyOn(Bun.unsafe, "setJITPolicy");
    try {
      using data = tempDir("od-daemon-jit-");
      const http = fakeServe();
      const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: data.path, token: "t", openSqlite: openBunSqlite, serve: http.serve, env: { PATH: "/nonexistent" } });
      await daemon.ready;
      for (let waited = 0; setPolicy.mock.calls.length === 0 && waited < 10_000; waited += 10) await Bun.sleep(10);
      expect(setPolicy.mock.calls).toEqual([[1]]);
      await daemon.stop();
    } finally {
      setPolicy.mockRestore();
    }
  });

  test("once start-up is over, what it compiled is handed back (Bun.shrink), once", async () => {
    // Counted, not run: it drops compiled code (server/platform/memory.ts).
    const shrink = spyOn(Bun, "shrink").mockImplementation(() => {});
    try {
      using data = tempDir("od-daemon-shrink-");
      const http = fakeServe();
      const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: data.path, token: "t", openSqlite: openBunSqlite, serve: http.serve, env: { PATH: "/nonexistent" } });
      await daemon.ready;
      for (let waited = 0; shrink.mock.calls.length === 0 && waited < 10_000; waited += 10) await Bun.sleep(10);
      expect((await http.call("/api/health")).status).toBe(200);
      await Bun.sleep(200);
      expect(shrink).toHaveBeenCalledTimes(1);
      await daemon.stop();
    } finally {
      shrink.mockRestore();
    }
  });

  test("requests made while the engine loads are all answered: app-config at once from the database, the rest by the engine", async () => {
    using data = tempDir("od-daemon-early-");
    const http = fakeServe();
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: data.path, token: "t", openSqlite: openBunSqlite, serve: http.serve, env: { PATH: "/nonexistent" } });
    let engineReady = false;
    void daemon.ready.then(() => (engineReady = true));
    const auth = { authorization: "Bearer t" };
    // All sent before the data dir is even open.
    const [config, refused, foreign, agents, put] = await Promise.all([
      http.call("/api/app-config", { headers: auth }).then((res) => ({ res, engineReady })),
      http.call("/api/app-config"),
      http.call("/api/app-config", { headers: { ...auth, "sec-fetch-site": "cross-site" } }),
      http.call("/api/agents", { headers: auth }).then((res) => ({ res, engineReady })),
      http.call("/api/app-config", { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ theme: "dark" }) }),
    ]);
    expect(config.engineReady).toBe(false); // the early answer did not wait for the engine
    expect([config.res.status, await config.res.json()]).toEqual([200, { config: {} }]);
    expect([refused.status, (await refused.json()).error.code]).toEqual([401, "UNAUTHORIZED"]);
    expect([foreign.status, (await foreign.json()).error.code]).toEqual([403, "FORBIDDEN_SITE"]);
    expect(agents.engineReady).toBe(true);
    expect(agents.res.status).toBe(200);
    expect([put.status, await put.json()]).toEqual([200, { config: { theme: "dark" } }]);
    expect(await (await http.call("/api/app-config", { headers: auth })).json()).toEqual({ config: { theme: "dark" } });
    await daemon.stop();
  });

  test("a data dir with a saved config (od.db opened before anything else loads) answers it early too", async () => {
    using data = tempDir("od-daemon-early-saved-");
    const store = Store.open(join(data.path, "od.db"), openBunSqlite);
    store.appConfig.update({ theme: "light", agentId: "claude" });
    store.close();
    const http = fakeServe();
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: data.path, token: "t", openSqlite: openBunSqlite, serve: http.serve, env: { PATH: "/nonexistent" } });
    let engineReady = false;
    void daemon.ready.then(() => (engineReady = true));
    const res = await http.call("/api/app-config", { headers: { authorization: "Bearer t" } });
    expect(engineReady).toBe(false);
    expect(await res.json()).toEqual({ config: { theme: "light", agentId: "claude" } });
    await daemon.ready;
    await daemon.stop();
  });

  test("the printed URL carries a one-time launch code, not the API token; the opened URL has a code of its own", async () => {
    using data = tempDir("od-daemon-code-");
    const http = fakeServe();
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: data.path, token: "api-token", openSqlite: openBunSqlite, serve: http.serve, env: { PATH: "/nonexistent" } });
    await daemon.ready;
    const printed = new URL(daemon.url).searchParams.get("token")!;
    const opened = new URL(daemon.openUrl()).searchParams.get("token")!;
    expect(printed).not.toBe("api-token");
    expect(opened).not.toBe(printed);
    const trade = (code: string) => http.call("/api/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code }) });
    const first = await trade(printed);
    expect(first.status).toBe(201);
    const { secret } = (await first.json()) as { secret: string };
    expect((await http.call("/api/app-config", { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    expect((await trade(printed)).status).toBe(401); // dead once used
    expect((await trade(opened)).status).toBe(201);
    expect((await http.call("/api/app-config", { headers: { authorization: "Bearer api-token" } })).status).toBe(200);
    await daemon.stop();
  });

  test("a browser signed in before a restart is still signed in after it, from the first request on", async () => {
    using data = tempDir("od-daemon-restart-");
    const start = (token: string) => {
      const http = fakeServe();
      return startDaemon({ port: 0, host: "127.0.0.1", dataDir: data.path, token, openSqlite: openBunSqlite, serve: http.serve, env: { PATH: "/nonexistent" } }).then((daemon) => ({ daemon, http }));
    };
    const first = await start("token-1");
    await first.daemon.ready;
    const code = new URL(first.daemon.url).searchParams.get("token")!;
    const traded = await first.http.call("/api/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code }) });
    const { secret } = (await traded.json()) as { secret: string };
    await first.daemon.stop();

    const second = await start("token-2");
    const auth = { authorization: `Bearer ${secret}` };
    // Sent before od.db is open: answered once it is, not refused.
    const [early, health] = await Promise.all([second.http.call("/api/app-config", { headers: auth }), second.http.call("/api/health")]);
    expect(health.status).toBe(200);
    expect(early.status).toBe(200);
    await second.daemon.ready;
    expect((await second.http.call("/api/agents", { headers: auth })).status).toBe(200);
    const everywhere = await second.http.call("/api/sessions", { method: "DELETE", headers: auth });
    expect(await everywhere.json()).toEqual({ ok: true, ended: 1 });
    expect((await second.http.call("/api/app-config", { headers: auth })).status).toBe(401);
    expect((await second.http.call("/api/app-config", { headers: { authorization: "Bearer token-2" } })).status).toBe(200);
    await second.daemon.stop();
  });

  test("a request without Host, or with a malformed one, is a typed 400 before and after the engine loads", async () => {
    using data = tempDir("od-daemon-host-");
    const http = fakeServe();
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: data.path, token: "t", openSqlite: openBunSqlite, serve: http.serve, env: { PATH: "/nonexistent" } });
    const malformed = () => http.call("/api/health", { headers: { host: "a:b:c" } });
    for (const phase of ["early", "ready"]) {
      if (phase === "ready") await daemon.ready;
      const res = await malformed();
      expect([phase, res.status]).toEqual([phase, 400]);
      expect((await res.json()).error.code).toBe("BAD_HOST");
    }
    await daemon.stop();
  });

  test("a data dir given relative (as `od serve --data-dir` passes it on) is resolved against the working directory", async () => {
    using data = tempDir("od-daemon-rel-");
    const http = fakeServe();
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: relative(process.cwd(), join(data.path, "od")), token: "t", openSqlite: openBunSqlite, serve: http.serve, env: { PATH: "/nonexistent" } });
    await daemon.ready;
    expect(existsSync(join(data.path, "od", "od.db"))).toBe(true);
    // Paths handed out (and later given to agents running in other folders) are absolute.
    const created = await http.call("/api/projects", { method: "POST", headers: { authorization: "Bearer t", "content-type": "application/json" }, body: JSON.stringify({ name: "rel" }) });
    const { project } = await created.json();
    expect(project.path.startsWith(join(data.path, "od", "projects"))).toBe(true);
    await daemon.stop();
  });

  test("an engine that cannot start rejects `ready` and answers 503, never a crash", async () => {
    using data = tempDir("od-daemon-bad-");
    const notADir = join(data.path, "file");
    writeFileSync(notADir, "x");
    const http = fakeServe();
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: notADir, token: "t", openSqlite: openBunSqlite, serve: http.serve, env: {} });
    await expect(daemon.ready).rejects.toThrow();
    const res = await http.call("/api/app-config", { headers: { authorization: "Bearer t" } });
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe("UNAVAILABLE");
    await daemon.stop();
  });
});
