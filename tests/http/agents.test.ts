/** /api/agents over a catalog of fake CLIs: JSON list, SSE in settle order ending with `done`, rescan. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { agentRoutes } from "../../server/http/agents.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { AgentListResponse } from "../../server/contracts/agents.ts";
import { tempDir } from "../support/temp.ts";
import { fakePath, testDef, writeFakeCli } from "../support/agents-fake-cli.ts";

const tmp = tempDir("od-http-agents-");
afterAll(() => tmp[Symbol.dispose]());
const bin = join(tmp.path, "bin");
writeFakeCli(bin, "od-fake-slow", "sleep 0.5; echo slow 1.0");
writeFakeCli(bin, "od-fake-fast", "echo fast 2.0");
const defs = [testDef("slow"), testDef("missing"), testDef("fast")];
// Every test builds its own catalog (fake CLIs here are read-only, each counting one in its own file) and mostly
// waits on slow probes: the tests run at the same time.
const catalog = () => new AgentCatalog({ defs, deps: () => ({ env: { PATH: fakePath(bin), HOME: tmp.path }, homeDir: tmp.path }) });

function parseSse(text: string): Array<{ event: string; data: unknown }> {
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "null";
      return { event, data: JSON.parse(data) };
    });
}

describe.concurrent("GET /api/agents", () => {
  test("returns every def in registry order, valid against the contract", async () => {
    const app = agentRoutes(catalog());
    const res = await app.handle(new Request("http://localhost/api/agents"));
    expect(res.status).toBe(200);
    const body = AgentListResponse.parse(await res.json());
    expect(body.agents.map((agent) => [agent.id, agent.state])).toEqual([
      ["slow", "available"], ["missing", "unavailable"], ["fast", "available"],
    ]);
  });

  test("?stream=1 sends one agent event per def in settle order, then done", async () => {
    const app = agentRoutes(catalog());
    const res = await app.handle(new Request("http://localhost/api/agents?stream=1"));
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual(["agent", "agent", "agent", "done"]);
    const ids = events.slice(0, 3).map((e) => (e.data as { id: string }).id);
    expect(ids.indexOf("slow")).toBe(2);
    expect(new Set(ids)).toEqual(new Set(["slow", "missing", "fast"]));
  });

  test("POST /api/agents/rescan re-probes and returns the list", async () => {
    const app = agentRoutes(catalog());
    const res = await app.handle(new Request("http://localhost/api/agents/rescan", { method: "POST" }));
    expect(res.status).toBe(200);
    const body = AgentListResponse.parse(await res.json());
    expect(body.agents.find((a) => a.id === "fast")?.version).toBe("fast 2.0");
  });
});

describe.concurrent("AgentCatalog", () => {
  test("concurrent rescans, lists and streams share one pass", async () => {
    const counter = join(tmp.path, "count");
    writeFakeCli(bin, "od-fake-counted", `echo x >> '${counter}'; sleep 0.2; echo 1.0`);
    const shared = new AgentCatalog({ defs: [testDef("counted")], deps: () => ({ env: { PATH: fakePath(bin), HOME: tmp.path }, homeDir: tmp.path }) });
    const streamed: string[] = [];
    const [a, b, c] = await Promise.all([
      shared.rescan(),
      shared.rescan(),
      shared.list(),
      (async () => {
        for await (const agent of shared.stream()) streamed.push(agent.id);
      })(),
    ]);
    expect(a).toEqual(b);
    expect(c).toEqual(a);
    expect(streamed).toEqual(["counted"]);
    expect((await Bun.file(counter).text()).trim().split("\n")).toHaveLength(1);
    expect(shared.peek("counted")?.version).toBe("1.0");
    await shared.rescan();
    expect((await Bun.file(counter).text()).trim().split("\n")).toHaveLength(2);
  });
});

describe.concurrent("probing is work no GET starts", () => {
  /** A catalog whose only fake CLI appends a line to a log on every probe. */
  function countingCatalog() {
    const dir = join(tmp.path, `count-${Math.random().toString(36).slice(2)}`);
    const log = join(dir, "probes.log");
    writeFakeCli(dir, "od-fake-counted", `echo probe >> '${log}'; echo counted 1.0`);
    const catalog = new AgentCatalog({ defs: [testDef("counted")], deps: () => ({ env: { PATH: fakePath(dir), HOME: tmp.path }, homeDir: tmp.path }) });
    const probes = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0);
    return { catalog, probes };
  }

  test("GET /api/agents?stream=1 replays the last pass however old, and never starts another", async () => {
    const { catalog, probes } = countingCatalog();
    const app = agentRoutes(catalog);
    await catalog.warm();
    const afterWarm = probes();
    expect(afterWarm).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      const events = parseSse(await (await app.handle(new Request("http://localhost/api/agents?stream=1"))).text());
      expect(events.map((e) => e.event)).toEqual(["agent", "done"]);
    }
    await (await app.handle(new Request("http://localhost/api/agents"))).json();
    expect(probes()).toBe(afterWarm);
  });

  test("POST /api/agents/rescan?stream=1 streams a fresh pass, or replays one younger than maxAgeMs", async () => {
    const { catalog, probes } = countingCatalog();
    const app = agentRoutes(catalog);
    const rescan = (body: unknown) =>
      app.handle(new Request("http://localhost/api/agents/rescan?stream=1", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    expect(parseSse(await (await rescan({})).text()).map((e) => e.event)).toEqual(["agent", "done"]);
    const afterFirst = probes();
    await (await rescan({ maxAgeMs: 60_000 })).text();
    expect(probes()).toBe(afterFirst);
    await (await rescan({})).text();
    expect(probes()).toBeGreaterThan(afterFirst);
    expect((await rescan({ maxAgeMs: "soon" })).status).toBe(400);
  });
});

describe.concurrent("GET /api/agents with a CLI slower than the deadline", () => {
  writeFakeCli(bin, "od-fake-late", "sleep 2; echo late 3.0");
  const lateCatalog = () =>
    new AgentCatalog({ defs: [testDef("fast"), testDef("late")], deadlineMs: 500, deps: () => ({ env: { PATH: fakePath(bin), HOME: tmp.path }, homeDir: tmp.path }) });

  test("the list answers at the deadline with the slow CLI still probing", async () => {
    const catalog = lateCatalog();
    const res = await agentRoutes(catalog).handle(new Request("http://localhost/api/agents"));
    const body = AgentListResponse.parse(await res.json());
    catalog.close();
    expect(body.agents.map((agent) => [agent.id, agent.state])).toEqual([["fast", "available"], ["late", "probing"]]);
  }, 20_000);

  test("?stream=1 sends the slow CLI as probing at the deadline, keeps streaming, and sends its result before done", async () => {
    const res = await agentRoutes(lateCatalog()).handle(new Request("http://localhost/api/agents?stream=1"));
    const events = parseSse(await res.text());
    const late = events.filter((e) => (e.data as { id?: string }).id === "late").map((e) => (e.data as { state: string; version: string | null }));
    expect(late.map((agent) => agent.state)).toEqual(["probing", "available"]);
    expect(late[1]?.version).toBe("late 3.0");
    expect(events.map((e) => e.event)).toEqual(["agent", "agent", "agent", "done"]);
  }, 20_000);
});
