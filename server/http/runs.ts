/** Runs: start, list, inspect, stream (with exact replay), read as history, page a large answer, cancel, and mid-turn input. */
import { Elysia } from "elysia";
import type { LoggedEvent } from "../store/event-json.ts";
import type { RunService } from "../runs/run-service.ts";
import { HttpError, parseBody } from "./errors.ts";
import { jsonPiecesResponse } from "./json-stream.ts";
import { perEvent } from "../platform/jit-tiers.ts";
import { formatJsonFrame, sseResponse } from "./sse.ts";
import { approvalsContract, runsContract } from "./request-schemas.ts";

export const runRoutes = (runs: RunService) =>
  new Elysia({ name: "runs" })
    .post("/api/runs", async ({ body, set }) => {
      const { runId, conversationId } = await runs.create(parseBody(runsContract().CreateRunRequest, body));
      set.status = 202;
      return { runId, conversationId };
    })
    .get("/api/runs", ({ query }) => ({ runs: runs.list(parseBody(runsContract().ListRunsQuery, query)) }))
    .get("/api/runs/:id", ({ params }) => requireRun(runs, params.id))
    .get("/api/runs/:id/events", ({ params, query, request }) => {
      requireRun(runs, params.id);
      const after = afterId(request.headers.get("last-event-id") ?? (typeof query.after === "string" ? query.after : undefined));
      return sseResponse(toSseText(runs.eventBatches(params.id, after, request.signal)), { signal: request.signal });
    })
    .get("/api/runs/:id/history", async ({ params }) => {
      requireRun(runs, params.id);
      // RunHistoryResponse, with the events' JSON as kept (a finished run's is read as one stored value).
      return jsonPiecesResponse(['{"runId":', JSON.stringify(params.id), ',"events":', await runs.historyJson(params.id), "}"]);
    })
    .get("/api/runs/:id/output", ({ params, query }) => {
      requireRun(runs, params.id);
      const range = parseBody(runsContract().RunOutputQuery, query);
      const output = runs.output(params.id, range.offset ?? 0, range.limit);
      if (!output) throw new HttpError(404, "OUTPUT_NOT_FOUND", `run ${params.id} has no stored output beyond its message`);
      return new Response(output.body, {
        headers: {
          // The agent's text, shown as text and never sniffed into anything else.
          "content-type": "text/plain; charset=utf-8",
          "x-content-type-options": "nosniff",
          "cache-control": "no-store",
          "x-od-total-bytes": String(output.totalBytes),
          "x-od-next-offset": String(output.end),
        },
      });
    })
    .post("/api/runs/:id/cancel", async ({ params }) => {
      requireRun(runs, params.id);
      const wasLive = await runs.cancel(params.id);
      return { ok: true, run: runs.get(params.id), alreadyEnded: !wasLive };
    })
    .post("/api/runs/:id/approvals/:approvalId", ({ params, body }) => {
      requireRun(runs, params.id);
      const { decision, message, answers } = parseBody(approvalsContract().AnswerApprovalRequest, body);
      const result = runs.answerApproval(params.id, params.approvalId, decision, message, answers);
      if (result === "unknown") throw new HttpError(404, "APPROVAL_NOT_FOUND", `run ${params.id} has no open approval request ${params.approvalId}`);
      if (result === "already_answered") throw new HttpError(409, "APPROVAL_ALREADY_ANSWERED", `approval request ${params.approvalId} was already answered`);
      if (result === "not_an_option") throw new HttpError(400, "APPROVAL_NOT_AN_OPTION", `approval request ${params.approvalId} does not take "${decision}"`);
      if (result === "answers_required") throw new HttpError(400, "ANSWERS_REQUIRED", `approval request ${params.approvalId} asks questions: answer them ("answers") or skip them with "deny"`);
      if (result === "not_a_question") throw new HttpError(400, "NOT_A_QUESTION", `approval request ${params.approvalId} asks no questions: "answers" is only for a question`);
      return { ok: true, approvalId: params.approvalId, decision };
    })
    .post("/api/runs/:id/input", async ({ params, body }) => {
      requireRun(runs, params.id);
      await runs.input(params.id, parseBody(runsContract().RunInputRequest, body).message);
      return { ok: true };
    });

function requireRun(runs: RunService, id: string) {
  const run = runs.get(id);
  if (!run) throw new HttpError(404, "NOT_FOUND", `no run ${id}`);
  return run;
}

function afterId(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 0;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new HttpError(400, "BAD_REQUEST", `invalid event id '${raw}'`);
  return value;
}

/** Each batch of the log's events as its SSE frames' text: the event's type, id, and its JSON text as it was logged. */
async function* toSseText(batches: AsyncIterable<LoggedEvent[]>): AsyncGenerator<string> {
  for await (const events of batches) yield framesOf(events);
}

/** A batch's frames, in a function of its own: a generator's body cannot be kept below the JIT's top tier. */
function framesOf(events: readonly LoggedEvent[]): string {
  let text = "";
  for (const event of events) text += formatJsonFrame(event.type, event.id, event.json);
  return text;
}
perEvent(framesOf);
