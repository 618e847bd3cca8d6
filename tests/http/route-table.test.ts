// The app's route table (server/app.ts): built once every route is mounted, instead of checked route by route. What a
// route table must keep doing either way: every route answers at its path and its trailing-slash form, a path mounted
// twice keeps its first handler, a clash of parameter names fails the start (not a later request), and a route mounted
// after the start is found too.
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { ORIGIN, startTestApp } from "../support/app.ts";

const routes = (name: string, answer: string) => new Elysia({ name }).get("/api/probe/:id", ({ params }) => ({ answer, id: params.id }));

describe("the app's route table", () => {
  test("every route answers at its path and with a trailing slash; an unknown one is the typed 404", async () => {
    await using t = await startTestApp({ modules: [routes("a", "first")] });
    for (const path of ["/api/health", "/api/health/", "/api/probe/7", "/api/probe/7/"]) {
      const res = await t.call(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const missing = await t.call("/api/nope");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: "NOT_FOUND", message: "no such route" } });
  });

  test("a path mounted twice keeps the handler mounted first", async () => {
    await using t = await startTestApp({ modules: [routes("a", "first"), routes("b", "second")] });
    expect(await (await t.call("/api/probe/1")).json()).toEqual({ answer: "first", id: "1" });
  });

  test("two routes whose parameters clash fail the app's start", async () => {
    const clash = new Elysia({ name: "clash" }).get("/api/probe/:other/more", () => "x");
    await expect(startTestApp({ modules: [routes("a", "first"), clash] })).rejects.toThrow(/parameter/);
  });

  test("a route mounted after the start, and after a first request, is found", async () => {
    await using t = await startTestApp();
    expect((await t.call("/api/health")).status).toBe(200);
    t.app.use(routes("late", "late"));
    expect(await (await t.call("/api/probe/2")).json()).toEqual({ answer: "late", id: "2" });
    expect((await t.app.handle(new Request(`${ORIGIN}/api/health`))).status).toBe(200);
  });
});
