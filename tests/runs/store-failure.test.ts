// A run whose writes fail (a full disk) stops writing at the first failure, whichever of its writes it was: what room
// is left goes to its last records (its end, its record, its message), not to more of its events.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataPaths } from "../../server/paths.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import type { LoggedEvent } from "../../server/store/event-json.ts";
import { endOf, runHarness } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const delta = (text: string) => JSON.stringify({ type: "assistant.message_delta", data: { deltaContent: text } });

test("when the run's answer file cannot be written, no more of its events are committed before its end", async () => {
  using temp = tempDir("od-store-failure-");
  const dataDir = join(temp.path, "data");
  mkdirSync(dataDir, { recursive: true });
  // A file where the answer files' folder goes: the first spill of the answer (past the fold's 4M characters) fails.
  writeFileSync(dataPaths(dataDir).runOutput, "not a folder");
  await using h = await runHarness({
    dataDir,
    defs: [getAgentDef("copilot")! as RuntimeAgentDef],
    shims: { copilot: undefined },
    // ~6M characters of answer, printed at once: most of it is read after the answer file failed.
    steps: [{ readAll: true }, { repeat: 6000, out: delta(`{{i}} ${"x".repeat(1000)}`) }],
  });
  const committed: LoggedEvent[][] = [];
  const append = h.store.runs.appendEvents.bind(h.store.runs);
  h.store.runs.appendEvents = (runId, events) => {
    committed.push([...events]);
    append(runId, events);
  };
  const { runId, events } = await h.run({ agentId: "copilot", message: "flood" });
  expect(endOf(events)).toMatchObject({ status: "failed", failureDetail: "store_failed" });
  await h.service.wait(runId);
  // The answer file failed once the fold was cut, at ~4,000 deltas: after it only the end's last words are committed,
  // not the ~2,000 deltas read since (on a full disk they took the room the run's record and message needed).
  const storedDeltas = committed.flat().filter((logged) => logged.type === "agent").length;
  expect(storedDeltas).toBeLessThan(4500);
  expect(committed.at(-1)!.at(-1)!.type).toBe("end");
  const answer = h.store.messages.list(events.find((e) => e.type === "start")!.conversationId).find((m) => m.role === "assistant")!;
  expect(answer.endedAt).toEqual(expect.any(Number));
});

test("an agent whose start cannot be recorded is stopped before its run ends, not left working in the project", async () => {
  await using h = await runHarness({
    defs: [getAgentDef("claude")! as RuntimeAgentDef],
    shims: { claude: undefined },
    // Left alone, the agent writes into the project well after the run's end.
    steps: [{ sleep: 800 }, { writeFile: { path: "late.txt", content: "written after the run ended" } }, { exit: 0 }],
  });
  h.store.runs.markRunning = () => {
    throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
  };
  const { runId, conversationId, events } = await h.run({ agentId: "claude", message: "hi" });
  expect(endOf(events)).toMatchObject({ status: "failed", failureDetail: "disk_full" });
  await h.service.wait(runId);
  // The session od minted for claude is kept with the record that the agent runs: neither was stored.
  expect(h.store.agentSessions.get(conversationId, "claude")).toBeUndefined();
  await Bun.sleep(1200);
  expect(existsSync(join(h.projectDir, "late.txt"))).toBe(false);
});
