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

  test("token → HttpOnly SameSite=Strict cookie → authorised", async () => {
    await using t = await startTestApp();
    const redeem = await t.app.handle(new Request(`${ORIGIN}/?token=${TEST_TOKEN}`));
    expect(redeem.status).toBe(302);
    expect(redeem.headers.get("location")).toBe("/");
    const setCookie = redeem.headers.get("set-cookie") ?? "";
    expect(setCookie).toContain(`od_token=${TEST_TOKEN}`);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    const cookie = setCookie.split(";")[0]!;
    const res = await t.app.handle(new Request(`${ORIGIN}/api/app-config`, { headers: { cookie } }));
    expect(res.status).toBe(200);
  });

  test("a wrong token in the link sets no cookie", async () => {
    await using t = await startTestApp();
    const res = await t.app.handle(new Request(`${ORIGIN}/?token=wrong`));
    expect(res.status).toBe(401);
    expect(res.headers.get("set-cookie")).toBeNull();
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
