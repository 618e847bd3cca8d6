/**
 * The page's first question to the daemon: is it there (health, open) and does the page's session work (the config,
 * which needs the session)? Both are asked at once — a page load waits on this before anything else — and the config
 * answered is the one the page uses, not asked for again.
 */
import { describe, expect, test } from "bun:test";
import { createApi } from "../../web/api/client.ts";
import { createDaemonModel } from "../../web/state/daemon.ts";
import { fakeFetch, until, type FakeRoute } from "../support/web-fake-fetch.ts";

/** A route that answers only once `open()` is called, so a test sees which calls were made before any answer. */
function held(answer: () => Response): { route: FakeRoute; open(): void } {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { route: async () => (await opened, answer()), open: () => release() };
}

describe("the daemon check", () => {
  test("asks health and the config at once, and resolves with the config when both answer", async () => {
    const health = held(() => Response.json({ ok: true, version: "1.2.3" }));
    const config = held(() => Response.json({ config: { theme: "dark" } }));
    const { fetch, calls } = fakeFetch({ "GET /api/health": health.route, "GET /api/app-config": config.route });
    const daemon = createDaemonModel(createApi(fetch));
    const checked = daemon.check();
    await until(() => calls.length === 2);
    expect(calls.map((c) => c.url).sort()).toEqual(["/api/app-config", "/api/health"]);
    config.open();
    health.open();
    expect(await checked).toEqual({ theme: "dark" });
    expect(daemon.state.value).toEqual({ kind: "ready", version: "1.2.3" });
  });

  test("a session the daemon refuses is unauthorized, with the sign-in link's reason", async () => {
    const { fetch } = fakeFetch({
      "GET /api/health": () => Response.json({ ok: true, version: "1.2.3" }),
      "GET /api/app-config": () => Response.json({ error: { code: "UNAUTHORIZED", message: "sign in" } }, { status: 401 }),
    });
    const daemon = createDaemonModel(createApi(fetch));
    daemon.signInRefused("the link was used already");
    expect(await daemon.check()).toBeUndefined();
    expect(daemon.state.value).toEqual({ kind: "unauthorized", reason: "the link was used already" });
  });

  test("a daemon that does not answer is offline, whatever the other call said", async () => {
    const { fetch } = fakeFetch({
      "GET /api/health": () => Promise.reject(new TypeError("connection refused")),
      "GET /api/app-config": () => Response.json({ error: { code: "UNAUTHORIZED", message: "sign in" } }, { status: 401 }),
    });
    const daemon = createDaemonModel(createApi(fetch));
    expect(await daemon.check()).toBeUndefined();
    expect(daemon.state.value).toMatchObject({ kind: "offline", message: expect.stringContaining("connection refused") });
  });
});
