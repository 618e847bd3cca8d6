import { describe, expect, test } from "bun:test";
import { ORIGIN, TEST_PORT, TEST_TOKEN, startTestApp } from "../support/app.ts";

describe("request guard", () => {
  test("health is open, and answers {ok, version}", async () => {
    await using t = await startTestApp();
    const res = await t.app.handle(new Request(`${ORIGIN}/api/health`));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, version: "0.0.0-test", ready: true });
  });

  test("an /api route without a token is 401 with a typed body", async () => {
    await using t = await startTestApp();
    const res = await t.app.handle(new Request(`${ORIGIN}/api/app-config`));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });

  test("a wrong bearer token is 401", async () => {
    await using t = await startTestApp();
    const res = await t.call("/api/app-config", { headers: { authorization: "Bearer nope" } });
    expect(res.status).toBe(401);
  });

  test("a launch code trades once for a session secret, which then authorises", async () => {
    await using t = await startTestApp();
    const { code } = t.credentials.issueLaunchCode();
    const trade = () => t.app.handle(new Request(`${ORIGIN}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code }) }));
    const first = await trade();
    expect(first.status).toBe(201);
    expect(first.headers.get("set-cookie")).toBeNull();
    const { secret } = (await first.json()) as { secret: string };
    expect(secret).not.toBe(code);
    expect((await t.call("/api/app-config", { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    const again = await trade();
    expect(again.status).toBe(401);
    expect((await again.json()).error.code).toBe("INVALID_LAUNCH_CODE");
  });

  test("a launch code is no credential by itself, and an unknown one trades for nothing", async () => {
    await using t = await startTestApp();
    const { code } = t.credentials.issueLaunchCode();
    expect((await t.call("/api/app-config", { headers: { authorization: `Bearer ${code}` } })).status).toBe(401);
    const res = await t.app.handle(new Request(`${ORIGIN}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code: "made-up" }) }));
    expect(res.status).toBe(401);
  });

  test("no cookie authenticates anything (browsers send cookies to every port of 127.0.0.1)", async () => {
    await using t = await startTestApp();
    const res = await t.app.handle(new Request(`${ORIGIN}/api/app-config`, { headers: { cookie: `od_token=${TEST_TOKEN}` } }));
    expect(res.status).toBe(401);
    const page = await t.app.handle(new Request(`${ORIGIN}/?token=${TEST_TOKEN}`));
    expect(page.headers.get("set-cookie")).toBeNull();
  });

  test("a signed-out session no longer authorises; a DELETE needs no body or content type", async () => {
    await using t = await startTestApp();
    const secret = t.credentials.redeem(t.credentials.issueLaunchCode().code)!;
    const auth = { authorization: `Bearer ${secret}` };
    const out = await t.app.handle(new Request(`${ORIGIN}/api/session`, { method: "DELETE", headers: auth }));
    expect(out.status).toBe(200);
    expect((await t.call("/api/app-config", { headers: auth })).status).toBe(401);
  });

  test("Sec-Fetch-Site same-site or cross-site is refused on /api even with a valid token", async () => {
    await using t = await startTestApp();
    for (const site of ["same-site", "cross-site"]) {
      const res = await t.call("/api/app-config", { headers: { "sec-fetch-site": site } });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("FORBIDDEN_SITE");
    }
    for (const site of ["same-origin", "none"]) expect((await t.call("/api/app-config", { headers: { "sec-fetch-site": site } })).status).toBe(200);
    const health = await t.app.handle(new Request(`${ORIGIN}/api/health`, { headers: { "sec-fetch-site": "same-site" } }));
    expect(health.status).toBe(403);
  });

  test("a ticket for a run's whole answer opens that route alone, with any range, and only by GET", async () => {
    await using t = await startTestApp();
    const { ticket } = t.credentials.issueFileTicket({ pathname: "/api/runs/r1/output", path: "" });
    const get = (path: string, method = "GET") => t.app.handle(new Request(`${ORIGIN}${path}`, { method }));
    expect((await get(`/api/runs/r1/output?ticket=${ticket}&offset=10&limit=5`)).status).toBe(404); // past the guard: no such route here
    expect((await get(`/api/runs/r2/output?ticket=${ticket}`)).status).toBe(401);
    expect((await get(`/api/runs/r1?ticket=${ticket}`)).status).toBe(401);
    expect((await get(`/api/runs/r1/output?ticket=${ticket}`, "DELETE")).status).toBe(401);
    expect((await get("/api/runs/r1/output")).status).toBe(401);
  });

  test("a malformed Host is a typed 400, not an error page", async () => {
    await using t = await startTestApp();
    for (const host of ["a:b:c", "x@127.0.0.1:7456", "127.0.0.1:7456 extra"]) {
      const res = await t.app.handle(new Request(`${ORIGIN}/api/health`, { headers: { host } }));
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("BAD_HOST");
    }
  });

  test("a foreign Origin is 403 even with a valid token", async () => {
    await using t = await startTestApp();
    const res = await t.call("/api/app-config", { headers: { origin: "http://evil.example" } });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("FORBIDDEN_ORIGIN");
  });

  test("another loopback port is a foreign Origin", async () => {
    await using t = await startTestApp();
    const res = await t.call("/api/app-config", { headers: { origin: `http://127.0.0.1:${TEST_PORT + 1}` } });
    expect(res.status).toBe(403);
  });

  test("our own Origin passes", async () => {
    await using t = await startTestApp();
    const res = await t.call("/api/app-config", { headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
  });

  test("a foreign Host (DNS rebinding) is 403, even on open routes", async () => {
    await using t = await startTestApp();
    for (const host of [`evil.example:${TEST_PORT}`, `127.0.0.1:${TEST_PORT + 1}`, "localhost"]) {
      const res = await t.app.handle(new Request(`${ORIGIN}/api/health`, { headers: { host } }));
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("FORBIDDEN_HOST");
    }
  });

  test("localhost and [::1] with our port are accepted hosts", async () => {
    await using t = await startTestApp();
    for (const host of [`localhost:${TEST_PORT}`, `[::1]:${TEST_PORT}`]) {
      const res = await t.app.handle(new Request(`${ORIGIN}/api/health`, { headers: { host } }));
      expect(res.status).toBe(200);
    }
  });

  test("a text/plain POST is 415 (no simple-request writes)", async () => {
    await using t = await startTestApp();
    const res = await t.call("/api/app-config", { method: "PUT", body: "{}", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(415);
    expect((await res.json()).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  test("unknown API routes are a JSON 404", async () => {
    await using t = await startTestApp();
    const res = await t.call("/api/nope");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("NOT_FOUND");
  });
});
