/**
 * The codex app-server transport against the REAL pinned codex (tests/realcli/.cache) and the fake model server.
 * Part of the real-CLI suite: the pinned installs are ensured first (a failed install fails the test).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnChild, type ChildHandle } from "../../server/platform/process.ts";
import { startCodexAppServerTransport } from "../../server/runtimes/protocols/codex-app-server/index.ts";
import type { ProtocolSession } from "../../server/runtimes/protocols/types.ts";
import type { AgentEvent } from "../../server/contracts/events.ts";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.ts";
import { loopbackOnlyEntry } from "./loopback-only.ts";
import { baseEnv, entryArgv, recipeFor, writeRecipeFiles } from "./recipes.ts";
import { ensureRealClis } from "./setup.ts";

describe("codex app-server (real codex)", () => {
  let fake: FakeModelServer;
  let home: string;
  let project: string;
  const children: ChildHandle[] = [];

  beforeAll(async () => {
    await ensureRealClis();
    fake = await startFakeModelServer();
    home = mkdtempSync(join(tmpdir(), "od-codex-home-"));
    project = mkdtempSync(join(tmpdir(), "od-codex-project-"));
  }, 20 * 60_000);
  afterAll(async () => {
    for (const child of children) {
      child.kill("SIGKILL", { group: true });
      await child.exited;
    }
    await fake.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });

  async function turn(prompt: string): Promise<{ session: ProtocolSession; events: AgentEvent[] }> {
    const recipe = recipeFor("codex", fake.url, home);
    writeRecipeFiles(recipe, home);
    const env = baseEnv(home, recipe);
    // In a loopback-only network namespace, as every real CLI here (loopback-only.ts).
    const isolated = loopbackOnlyEntry(home, `codex-${children.length}`, entryArgv(recipe), fake.url);
    const child = await spawnChild({ argv: [isolated.entry, "app-server"], cwd: project, env, stdin: "pipe", ownProcessGroup: true });
    children.push(child);
    void child.exited.then(() => isolated.close());
    if (!child.stdin) throw new Error("no stdin");
    const session = startCodexAppServerTransport(
      { stdin: child.stdin, stdout: child.stdout, stderr: child.stderr },
      { cwd: project, prompt, imagePaths: [], mcpServers: [], def: {}, env: { OD_CODEX_SANDBOX: "danger-full-access" } },
    );
    const events: AgentEvent[] = [];
    for await (const event of session.events) events.push(event);
    await child.exited;
    return { session, events };
  }

  test("a text turn completes with real deltas and a thread id", async () => {
    const { session, events } = await turn("[[od:text]] say hi");
    const result = await session.result;
    expect(result.status).toBe("completed");
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const text = events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta).join("");
    expect(text).toContain("od-fake: user_messages=1");
    expect(events.some((e) => e.type === "usage")).toBe(true);
  }, 60_000);

  test("an apply_patch write becomes one file_write row settled with a result", async () => {
    writeFileSync(join(project, ".keep"), "");
    const { session, events } = await turn('[[od:write path=hello.txt content="hi there"]]');
    expect((await session.result).status).toBe("completed");
    const uses = events.filter((e) => e.type === "tool_use" && e.kind === "file_write");
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ path: "hello.txt" });
    const id = (uses[0] as { id: string }).id;
    expect(events.some((e) => e.type === "tool_result" && e.toolUseId === id && !e.isError)).toBe(true);
    expect(existsSync(join(project, "hello.txt"))).toBe(true);
  }, 60_000);
});
