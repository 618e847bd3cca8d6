// A lost run's answer is folded again from the events it stored (recovery.ts). Its live fold had already stored the
// long parts' pieces, ahead of the events' own writes (those flush in batches): the fold made again starts the
// message's pieces over, so the answer is what the stored events say and no piece of the lost fold is left.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { RunEventLog } from "../../server/runs/event-log.ts";
import { EventFolder } from "../../server/runs/fold.ts";
import { MessageTextPieces } from "../../server/runs/text-pieces.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { runHarness } from "../support/fake-agents.ts";

const claudeText = [{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }];

test("a lost run's answer is its stored events' fold, its live fold's pieces replaced", async () => {
  await using h = await runHarness({ defs: [getAgentDef("claude")!], shims: { claude: undefined }, steps: claudeText });
  const { conversationId } = await h.run({ agentId: "claude", message: "one" });
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  h.store.runs.create({ id: "run_lost", projectId: h.projectId, conversationId, agentId: "claude", model: null, reasoning: null, owner: { pid: dead.pid, startTime: null } });
  h.store.runs.markRunning("run_lost", null);
  const messageId = h.store.messages.add({ conversationId, role: "assistant", text: "", runId: "run_lost" });

  const stored = Array.from({ length: 9000 }, (_, i) => `stored line ${i}\n`);
  const log = new RunEventLog("run_lost", h.store.runs);
  for (const delta of stored) log.append({ type: "agent", event: { type: "text_delta", delta } });
  log.flush();
  // The live fold got further than the events' writes before its od died.
  const live = new EventFolder({ pieces: new MessageTextPieces(h.store.messages, messageId, () => {}) });
  for (const delta of [...stored, ...Array.from({ length: 9000 }, (_, i) => `never stored ${i}\n`)]) live.push({ type: "text_delta", delta });

  expect(h.service.recoverInterruptedRuns()).toBe(1);
  expect(h.service.get("run_lost")).toMatchObject({ status: "failed", failureDetail: "daemon_restart" });
  const answer = h.store.messages.list(conversationId).find((m) => m.id === messageId)!;
  expect(answer.text).toBe(stored.join(""));
  const pieces = h.store.db.prepare("SELECT text FROM message_text_pieces WHERE message_id = ?").all(messageId);
  expect(pieces.length).toBeGreaterThan(0);
  expect(pieces.some((piece) => String(piece.text).includes("never stored"))).toBe(false);
});
