/**
 * A finished turn, shown again: its run's stored events (`GET /api/runs/:id/history`) folded by the live fold, so a
 * reloaded turn is the turn the live view showed, by construction — one interpretation of events, not two. A message
 * with no stored events (older data, a run whose events were never written) is folded from events that say what the
 * message itself says: its text and how its run ended.
 */
import type { Message } from "../../server/contracts/projects.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { RunDraft } from "./run-draft.ts";
import { foldRunEvent } from "./run-fold.ts";
import { emptyRunState, type RunState } from "./run-state.ts";

/** `events` (in id order, as the daemon stored them) folded from an empty run. */
export function runStateFromEvents(runId: string, events: readonly RunEvent[]): RunState {
  const draft = new RunDraft(emptyRunState(runId));
  for (const event of events) foldRunEvent(draft, event);
  return draft.snapshot();
}

/** The view of `message`: its run's stored events, or (none stored) the message's own text and ending. */
export function historyState(message: Message, stored: readonly RunEvent[]): RunState {
  const runId = message.runId ?? message.id;
  return runStateFromEvents(runId, stored.length ? stored : messageEvents(message));
}

/** RunEvents that say what a message without stored events says: who answered, its text, and how its run ended. */
export function messageEvents(message: Message): RunEvent[] {
  const runId = message.runId ?? message.id;
  const startedAt = message.startedAt ?? message.createdAt;
  const events: RunEvent[] = [];
  let id = 0;
  if (message.agentId) {
    events.push({
      type: "start", id: ++id, ts: startedAt, runId, agentId: message.agentId, bin: "", protocolVersion: 1, cwd: "", projectId: "",
      conversationId: message.conversationId, model: null, reasoning: null, attemptIndex: 0, resume: "new",
    });
  }
  if (message.text) events.push({ type: "agent", id: ++id, ts: startedAt, event: { type: "text_delta", delta: message.text } });
  const status = message.runStatus;
  if (status === "succeeded" || status === "failed" || status === "canceled") {
    const endedAt = message.endedAt ?? startedAt;
    events.push({ type: "end", id: ++id, ts: endedAt, status, code: null, signal: null, reason: status, files: message.files, durationMs: Math.max(0, endedAt - startedAt) });
  }
  return events;
}
