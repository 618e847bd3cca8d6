// Issue #34: a full disk fails one run, not the daemon. With the data dir on a small tmpfs, an agent that prints far
// more than fits ends `failed` with DISK_FULL (what it stored stays readable), the daemon keeps serving, new runs are
// refused with DISK_FULL until there is room again, and nothing stored earlier is lost or corrupted.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { openBunSqlite } from "../server/platform/sqlite-bun.ts";
import { fakeAgentWorld } from "./support/fake-agent-daemon.ts";
import { readSse } from "./support/sse.ts";

const delta = (text: string) => JSON.stringify({ type: "assistant.message_delta", data: { deltaContent: text } });
const SMALL = [{ readAll: true }, { out: delta("a small answer") }];
/** About 48 MB of answer: more than either disk holds, events and the spilled answer together. */
const FLOOD = [{ readAll: true }, { repeat: 48_000, out: delta(`{{i}} ${"x".repeat(1000)}`) }];

/** Writes `path` until the disk holding it is full. */
function fillDisk(path: string): void {
  const fd = openSync(path, "w");
  try {
    for (const chunk = new Uint8Array(64 * 1024); ; ) writeSync(fd, chunk);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}

function run(argv: string[]): void {
  const result = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${argv.join(" ")} failed: ${result.stderr || result.error?.message}`);
}

describe("a full disk", () => {
  for (const sizeMb of [3, 20]) {
    test(`on a ${sizeMb} MB data disk: the flooding run fails with DISK_FULL, the daemon serves on, new runs wait for room`, async () => {
      using world = fakeAgentWorld(SMALL);
      const script = join(world.dir, "script.json");
      mkdirSync(world.dataDir, { recursive: true });
      run(["mount", "-t", "tmpfs", "-o", `size=${sizeMb}m,mode=0700`, "tmpfs", world.dataDir]);
      let od: Awaited<ReturnType<typeof world.start>> | undefined;
      try {
        od = await world.start();
        const first = await world.startRun(od, "before");
        const firstReplay = await readSse(await world.api(od, `/api/runs/${first}/events`));
        expect(firstReplay.at(-1)).toMatchObject({ event: "end", data: { status: "succeeded" } });

        writeFileSync(script, JSON.stringify(FLOOD));
        const flood = await world.startRun(od, "flood");
        const floodReplay = await readSse(await world.api(od, `/api/runs/${flood}/events`));
        expect(floodReplay.at(-1)).toMatchObject({ event: "end", data: { status: "failed", reason: expect.stringContaining("disk") } });
        expect(floodReplay.some((frame) => frame.event === "error" && (frame.data as { error: { code: string } }).error.code === "DISK_FULL")).toBe(true);
        const summary = (await (await world.api(od, `/api/runs/${flood}`)).json()) as { status: string; errorCode: string; conversationId: string };
        expect(summary).toMatchObject({ status: "failed", errorCode: "DISK_FULL" });
        // What it stored stays readable: its events replay in order, and its message ended.
        const ids = floodReplay.map((frame) => Number(frame.id));
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        expect(floodReplay.length).toBeGreaterThan(10);
        const { messages } = (await (await world.api(od, `/api/conversations/${summary.conversationId}/messages`)).json()) as { messages: { runId: string | null; endedAt: number | null }[] };
        expect(messages.find((message) => message.runId === flood)?.endedAt).toEqual(expect.any(Number));

        // The daemon serves on; a new run is refused with a clear message until there is room. (What the flood left
        // free is less than its last write, which can be small: whatever is left is filled, as other programs would.)
        expect((await world.api(od, "/api/health")).status).toBe(200);
        fillDisk(join(world.dataDir, "filler"));
        writeFileSync(script, JSON.stringify(SMALL));
        const refused = await world.api(od, "/api/runs", { method: "POST", body: JSON.stringify({ projectId: await projectId(world, od), agentId: "copilot", message: "again" }) });
        expect(refused.status).toBe(507);
        expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "DISK_FULL", message: expect.stringContaining("free some space") });

        run(["mount", "-o", `remount,size=${sizeMb + 64}m`, world.dataDir]);
        const after = await world.startRun(od, "after");
        const afterReplay = await readSse(await world.api(od, `/api/runs/${after}/events`));
        expect(afterReplay.at(-1)).toMatchObject({ event: "end", data: { status: "succeeded" } });
        // Nothing stored before the flood was lost.
        expect(await readSse(await world.api(od, `/api/runs/${first}/events`))).toEqual(firstReplay);
        await od.stop();
        od = undefined;
        const db = openBunSqlite(join(world.dataDir, "od.db"));
        try {
          expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
        } finally {
          db.close();
        }
      } finally {
        await od?.stop();
        run(["umount", world.dataDir]);
      }
    }, 120_000);
  }
});

async function projectId(world: ReturnType<typeof fakeAgentWorld>, od: Awaited<ReturnType<ReturnType<typeof fakeAgentWorld>["start"]>>): Promise<string> {
  const listed = (await (await world.api(od, "/api/projects")).json()) as { projects: { id: string; path: string }[] };
  return listed.projects.find((project) => project.path === world.projectDir)!.id;
}
