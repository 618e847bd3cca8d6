/**
 * Approvals: how a run in `ask` mode forwards each question of its agent ("may I run this command?") to a person and
 * carries the answer back. The two agent events (`approval_request`, `approval_resolved`) live in events.ts; this
 * file holds the vocabulary they share with the HTTP route that answers a request.
 */
import { z } from "./zod.ts";
import { APPROVAL_DECISIONS, PERMISSION_MODES } from "./approval-values.ts";

/**
 * How a run treats its agent's tool calls: `bypass` runs them all (the CLIs' own bypass flags, the default),
 * `ask` forwards each question to a person, `read-only` lets the agent read and think and refuses writes and
 * commands without asking anyone.
 */
export const PermissionMode = z.enum(PERMISSION_MODES);
export type PermissionMode = z.infer<typeof PermissionMode>;

/** An answer: allow this call, allow this tool (or command prefix) for the rest of the run, or refuse it. */
export const ApprovalDecision = z.enum(APPROVAL_DECISIONS);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/**
 * What the call would do, normalised across CLIs, so a person sees "command" the same way for every agent;
 * `question`: the agent asks the person something (Claude Code's AskUserQuestion) and waits for the answers.
 */
export const ApprovalKind = z.enum(["command", "edit", "read", "fetch", "mcp", "other", "question"]);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

/** Who decided: the person, the `approvalTimeoutMs` clock, or the run's cancel. */
export const ApprovalResolvedBy = z.enum(["user", "timeout", "cancel"]);
export type ApprovalResolvedBy = z.infer<typeof ApprovalResolvedBy>;

/** One question of a `question` request: a short header, the options to choose from, one or several. */
export const AgentQuestion = z.object({
  question: z.string(),
  header: z.string().optional(),
  multiSelect: z.boolean(),
  options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
});
export type AgentQuestion = z.infer<typeof AgentQuestion>;

/** A question's answer: the chosen option's label (several joined by ", "), or the person's own words. */
export const QuestionAnswers = z.record(z.string().max(4000), z.string().max(4000));
export type QuestionAnswers = z.infer<typeof QuestionAnswers>;

/**
 * `POST /api/runs/:id/approvals/:approvalId`: the answer, and for `deny` what the agent is told. A `question` request
 * is answered with `allow_once` and `answers` (question text → answer), or skipped with `deny`.
 */
export const AnswerApprovalRequest = z.strictObject({
  decision: ApprovalDecision,
  message: z.string().max(4000).optional(),
  answers: QuestionAnswers.optional(),
});
export type AnswerApprovalRequest = z.infer<typeof AnswerApprovalRequest>;

export const AnswerApprovalResponse = z.object({ ok: z.literal(true), approvalId: z.string(), decision: ApprovalDecision });
