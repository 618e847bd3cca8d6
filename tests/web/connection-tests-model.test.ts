// The Settings card's connection test: one request per agent at a time, the result (ok or a failure kind) kept per agent.
import { expect, test } from "bun:test";
import { signal } from "@preact/signals";
import { createApi } from "../../web/api/client.ts";
import { createConnectionTestsModel } from "../../web/state/connection-tests.ts";
import { fakeFetch } from "../support/web-fake-fetch.ts";

test("a test runs once per click, sends the saved choice, and keeps each agent's result", async () => {
  let answer!: (response: Response) => void;
  const { fetch, calls } = fakeFetch({
    "POST /api/test/connection": (init) =>
      JSON.parse(String(init?.body)).agentId === "claude"
        ? new Promise<Response>((resolve) => (answer = resolve))
        : Response.json({ ok: false, kind: "not_installed", latencyMs: 1, agentName: "Codex", detail: "Codex is not installed" }),
  });
  const model = createConnectionTestsModel(createApi(fetch));
  const running = model.run("claude", { model: "sonnet" });
  void model.run("claude"); // ignored while the first is running
  expect(model.byAgent.value.claude).toEqual({ kind: "running" });
  await model.run("codex");
  answer(Response.json({ ok: true, latencyMs: 900, agentName: "Claude Code", model: "sonnet", detail: "OK" }));
  await running;
  expect(calls.map((c) => c.body)).toEqual([{ agentId: "claude", model: "sonnet" }, { agentId: "codex" }]);
  expect(model.byAgent.value.claude).toMatchObject({ kind: "done", result: { ok: true, detail: "OK" } });
  expect(model.byAgent.value.codex).toMatchObject({ kind: "done", result: { ok: false, kind: "not_installed" } });
});

test("a transport failure is shown as an error, not a result", async () => {
  const model = createConnectionTestsModel(createApi(async () => Promise.reject(new TypeError("Failed to fetch"))));
  await model.run("claude");
  expect(model.byAgent.value.claude).toEqual({ kind: "error", message: "Failed to fetch" });
});

test("a test runs on the open project's machine, and each machine keeps its own results", async () => {
  const { fetch, calls } = fakeFetch({
    "POST /api/test/connection": (init) => Response.json({ ok: true, latencyMs: 5, agentName: "Claude Code", detail: JSON.parse(String(init?.body)).location ?? "here" }),
  });
  const machine = signal<string | null>("ssh://box");
  const model = createConnectionTestsModel(createApi(fetch), machine);
  await model.run("claude");
  expect(calls.map((c) => c.body)).toEqual([{ agentId: "claude", location: "ssh://box" }]);
  expect(model.byAgent.value.claude).toMatchObject({ kind: "done", result: { detail: "ssh://box" } });
  machine.value = null;
  expect(model.byAgent.value.claude).toBeUndefined();
  await model.run("claude");
  expect(calls.at(-1)!.body).toEqual({ agentId: "claude" });
  expect(model.byAgent.value.claude).toMatchObject({ kind: "done", result: { detail: "here" } });
});
