/**
 * DeepSeek Harness end to end against the fake dsh, through the same catalog + run service the daemon wires:
 * setup-required → setup → a run → a resumed turn in the same Harness session → a rejected resume that reseeds with
 * the transcript → a cancel that goes through the profile's `cancel` frame. Then the same story over HTTP.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import type { DshRuntimeSource } from "../../server/dsh/embedded-runtime.ts";
import { setupDeepseekHarness } from "../../server/dsh/setup-agent.ts";
import { agentRoutes } from "../../server/http/agents.ts";
import { runRoutes } from "../../server/http/runs.ts";
import { setupRoutes } from "../../server/http/setup.ts";
import { startTestApp } from "../support/app.ts";
import { agentEvents, endOf, processesWithRunCookie } from "../support/fake-agents.ts";
import { dshWorld, packedSource, type DshWorld } from "./dsh-world.ts";

const AGENT = "deepseek-harness";
let packed: Awaited<ReturnType<typeof packedSource>>;
beforeAll(async () => {
  packed = await packedSource();
}, 60_000);
afterAll(() => packed[Symbol.dispose]());

/** Writes must be JSON (the guard's CSRF rule), so the dialog posts `{}`. */
const postSetup = (app: { json(method: string, path: string, body: unknown): Promise<Response> }) => app.json("POST", `/api/agents/${AGENT}/setup`, {});
const textOf = (events: RunEvent[]) => agentEvents(events).flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
const startsOf = (events: RunEvent[]) => events.flatMap((e) => (e.type === "start" ? [e] : []));
const dshInfo = (infos: AgentInfo[]) => infos.find((info) => info.id === AGENT);
const session = (world: DshWorld, conversationId: string) => world.store.agentSessions.get(conversationId, AGENT);

describe("deepseek-harness through the run service", () => {
  test("setup-required → setup → run → native resume → rejected resume reseeds → cancel", async () => {
    await using world = dshWorld();

    expect(dshInfo(await world.catalog.list())?.state).toBe("setup-required");
    await expect(world.run({ message: "too early" })).rejects.toMatchObject({ code: "AGENT_UNAVAILABLE" });

    expect(await setupDeepseekHarness({ env: world.env, source: packed.source })).toEqual({ ok: true, action: "installed", agent: AGENT, packageVersion: "0.1.0" });
    expect(dshInfo(await world.catalog.rescan())?.state).toBe("available");

    // Turn 1: a new Harness session, its id kept for the conversation.
    const first = await world.run({ message: "build a page", model: "deepseek/deepseek-v4-pro" });
    expect(endOf(first.events).status).toBe("succeeded");
    expect(startsOf(first.events)).toEqual([expect.objectContaining({ resume: "new", attemptIndex: 0, model: "deepseek/deepseek-v4-pro" })]);
    expect(textOf(first.events)).toBe("turn 1: echo build a page");
    expect(agentEvents(first.events)).toContainEqual({ type: "thinking_delta", delta: "considering build a page" });
    const handle = session(world, first.conversationId);
    expect(handle).toMatch(/^od-/);
    expect(agentEvents(first.events)).toContainEqual(expect.objectContaining({ type: "status", sessionId: handle }));

    // Turn 2: cold resume of that exact session; the harness counts it as the session's second turn.
    const second = await world.run({ message: "now blue", conversationId: first.conversationId });
    expect(endOf(second.events).status).toBe("succeeded");
    expect(startsOf(second.events)).toEqual([expect.objectContaining({ resume: "native" })]);
    expect(textOf(second.events)).toBe("turn 2: echo now blue");
    expect(session(world, first.conversationId)).toBe(handle);

    // Turn 3: the harness refuses the resume → the handle is dropped and the turn is resent with the transcript.
    world.script({ rejectResume: true });
    const third = await world.run({ message: "and bigger", conversationId: first.conversationId });
    expect(endOf(third.events).status).toBe("succeeded");
    expect(startsOf(third.events).map((s) => [s.attemptIndex, s.resume])).toEqual([
      [0, "native"],
      [1, "transcript"],
    ]);
    expect(third.events).toContainEqual(expect.objectContaining({ type: "diagnostic", kind: "session_reseed" }));
    const reseeded = textOf(third.events);
    expect(reseeded).toStartWith("turn 1: echo ## Conversation so far");
    for (const earlier of ["build a page", "turn 1: echo build a page", "now blue", "turn 2: echo now blue", "## Current request\n\nand bigger"]) {
      expect(reseeded).toContain(earlier);
    }
    const fresh = session(world, first.conversationId);
    expect(fresh).toMatch(/^od-/);
    expect(fresh).not.toBe(handle);

    // Turn 4: cancel mid-turn. The profile gets a `cancel` frame, reports `cancelled` and exits 0 by itself.
    world.script({ steps: [{ text: "starting" }, { wait_for_cancel: true }, { text: "never" }] });
    const created = await world.runs.create({ projectId: world.projectId, agentId: AGENT, message: "long job", conversationId: first.conversationId });
    const seen: RunEvent[] = [];
    for await (const event of world.runs.events(created.runId)) {
      seen.push(event);
      if (event.type === "agent" && event.event.type === "text_delta") break;
    }
    expect(await world.runs.cancel(created.runId)).toBe(true);
    for await (const event of world.runs.events(created.runId, seen.at(-1)?.id ?? 0)) seen.push(event);
    const end = endOf(seen);
    expect(end.status).toBe("canceled");
    // A clean exit (not SIGTERM/SIGKILL) proves the profile stopped on the cancel frame, not on the kill ladder.
    expect({ code: end.code, signal: end.signal }).toEqual({ code: 0, signal: null });
    expect(textOf(seen)).toBe("starting");
    expect(world.runs.get(created.runId)?.status).toBe("canceled");
    expect(processesWithRunCookie(created.runId)).toEqual([]);
  }, 120_000);
});

describe("deepseek-harness over HTTP", () => {
  async function appFor(world: DshWorld, source: DshRuntimeSource = packed.source) {
    return startTestApp({
      modules: [agentRoutes(world.catalog), setupRoutes({ catalog: world.catalog, env: world.env, source: () => source }), runRoutes(world.runs)],
    });
  }

  test("the confirm dialog's calls: list → setup (single-flight) → list → run", async () => {
    await using world = dshWorld();
    await using app = await appFor(world);
    const listed = (await (await app.call("/api/agents")).json()) as { agents: AgentInfo[] };
    const before = dshInfo(listed.agents);
    expect(before?.state).toBe("setup-required");
    expect(before?.diagnostics.find((d) => d.reason === "setup-required")?.fixActions).toContainEqual({ kind: "setup" });

    const unauthorised = await app.call(`/api/agents/${AGENT}/setup`, { method: "POST", body: "{}", headers: { authorization: "Bearer wrong", "content-type": "application/json" } });
    expect(unauthorised.status).toBe(401);

    const [a, b] = await Promise.all([postSetup(app), postSetup(app)]);
    expect(a.status).toBe(200);
    const body = { ok: true, action: "installed", agent: AGENT, packageVersion: "0.1.0" };
    expect(await a.json()).toEqual(body);
    // Both requests shared the one install (a second install would have answered "already-compatible").
    expect(await b.json()).toEqual(body);

    // The route rescanned: the very next list shows it available, with the profile's models.
    const after = dshInfo(((await (await app.call("/api/agents")).json()) as { agents: AgentInfo[] }).agents);
    expect(after?.state).toBe("available");
    expect(after?.models.map((m) => m.id)).toContain("deepseek/deepseek-v4-flash");

    const again = await postSetup(app);
    expect(await again.json()).toMatchObject({ ok: true, action: "already-compatible" });

    const created = await app.json("POST", "/api/runs", { projectId: world.projectId, agentId: AGENT, message: "hello" });
    expect(created.status).toBe(202);
    const { runId } = (await created.json()) as { runId: string };
    const stream = await (await app.call(`/api/runs/${runId}/events`)).text();
    const events = stream.split("\n").flatMap((line) => (line.startsWith("data: ") ? [JSON.parse(line.slice(6)) as RunEvent] : []));
    expect(textOf(events)).toBe("turn 1: echo hello");
    expect(endOf(events).status).toBe("succeeded");
  }, 120_000);

  test("typed failures: no dsh → 409 AGENT_NOT_INSTALLED; a tampered bundle → 500 BUNDLED_COMPANION_INVALID", async () => {
    await using missing = dshWorld({ dshOnPath: false });
    await using missingApp = await appFor(missing);
    const notInstalled = await postSetup(missingApp);
    expect(notInstalled.status).toBe(409);
    expect(await notInstalled.json()).toEqual({ error: { code: "AGENT_NOT_INSTALLED", message: expect.stringContaining("install-dsh.sh") } });

    await using world = dshWorld();
    const tampered: DshRuntimeSource = {
      manifest: () => packed.source.manifest(),
      readTarball: async () => {
        const bytes = (await packed.source.readTarball()).slice();
        bytes[0] = (bytes[0] ?? 0) ^ 0xff;
        return bytes;
      },
    };
    await using app = await appFor(world, tampered);
    const invalid = await postSetup(app);
    expect(invalid.status).toBe(500);
    expect(((await invalid.json()) as { error: { code: string } }).error.code).toBe("BUNDLED_COMPANION_INVALID");
  }, 120_000);
});
