/**
 * The one owner of a live run's approval requests: the agent's transport asks (`ask`), the question becomes an
 * `approval_request` event and waits; a person answers it (`answer`), its timeout denies it, or the run's end denies
 * every one still open (`close`). Each answer is an `approval_resolved` event saying who decided. `allow_run` is
 * remembered for the rest of the run: the same tool (or command prefix) is then allowed without asking again.
 * In `read-only` mode nobody is asked about actions: reads are allowed, everything else is refused with a message for
 * the agent. A `question` (the agent asking the person something) is asked in either mode: it changes nothing.
 */
import type { ApprovalDecision, ApprovalResolvedBy, QuestionAnswers } from "../contracts/approvals.ts";
import type { PendingApproval } from "../contracts/events.ts";
import { APPROVAL_DECISIONS } from "../contracts/approval-values.ts";
import type { AgentEvent } from "../contracts/events.ts";
import type { ApprovalAnswer, ApprovalQuestion } from "../runtimes/approval-channel.ts";
import { newId } from "../store/ids.ts";

/** What a refused call tells the agent, by who refused it (a person's own message wins). */
const DENIED_BECAUSE: Record<ApprovalResolvedBy, string> = {
  user: "The user denied this tool call.",
  timeout: "Nobody answered this approval request in time, so it was denied.",
  cancel: "The run was canceled, so this tool call was denied.",
};

export const READ_ONLY_REFUSAL = "This run is read-only: writes, commands and other actions are refused. Read and explain instead.";

/** What a skipped question tells the agent. */
const QUESTION_SKIPPED = "The user skipped this question: go on with your best judgement.";

/**
 * `not_an_option`: the request does not take that decision (`allow_run` for a question); `answers_required`: a
 * question answered without answers; `not_a_question`: answers given to a request that asked none.
 */
export type AnswerResult = "answered" | "unknown" | "already_answered" | "not_an_option" | "answers_required" | "not_a_question";

type Waiting = { request: PendingApproval; key: string; timer: ReturnType<typeof setTimeout>; settle: (answer: ApprovalAnswer) => void };

export class RunApprovals {
  readonly #waiting = new Map<string, Waiting>();
  readonly #answered = new Set<string>();
  /** Tools (`tool:Write`) and command prefixes (`command:npm test`) a person allowed for the rest of the run. */
  readonly #allowedForRun = new Set<string>();
  #closed = false;

  constructor(
    private readonly options: {
      mode: "ask" | "read-only";
      /** How long a request waits for a person before it is denied. */
      timeoutMs: number;
      /** Where the run's `approval_request` / `approval_resolved` events go. */
      emit: (event: AgentEvent) => void;
    },
  ) {}

  /** The transport's question; resolves with the answer, whoever gives it. */
  ask(question: ApprovalQuestion): Promise<ApprovalAnswer> {
    if (this.options.mode === "read-only" && question.kind !== "question") {
      return Promise.resolve(question.kind === "read" ? { decision: "allow_once" } : { decision: "deny", message: READ_ONLY_REFUSAL });
    }
    if (this.#closed) return Promise.resolve({ decision: "deny", message: DENIED_BECAUSE.cancel });
    const key = question.kind === "command" && question.commandPrefix ? `command:${question.commandPrefix}` : `tool:${question.toolName}`;
    if (this.#allowedForRun.has(key)) return Promise.resolve({ decision: "allow_run" });

    const request: PendingApproval = {
      approvalId: newId("appr"),
      toolName: question.toolName,
      kind: question.kind,
      title: question.title,
      input: question.input,
      options: question.kind === "question" ? ["allow_once", "deny"] : [...APPROVAL_DECISIONS],
      ...(question.questions ? { questions: question.questions } : {}),
      requestedAt: Date.now(),
    };
    return new Promise<ApprovalAnswer>((settle) => {
      const timer = setTimeout(() => this.#resolve(request.approvalId, "deny", undefined, "timeout"), this.options.timeoutMs);
      this.#waiting.set(request.approvalId, { request, key, timer, settle });
      const { requestedAt: _, ...wire } = request;
      this.options.emit({ type: "approval_request", ...wire });
    });
  }

  /** A person's answer to one request (a question's with its answers). */
  answer(approvalId: string, decision: ApprovalDecision, message?: string, answers?: QuestionAnswers): AnswerResult {
    if (this.#answered.has(approvalId)) return "already_answered";
    const waiting = this.#waiting.get(approvalId);
    if (!waiting) return "unknown";
    if (!waiting.request.options.includes(decision)) return "not_an_option";
    const isQuestion = waiting.request.kind === "question";
    if (answers && !isQuestion) return "not_a_question";
    if (isQuestion && decision !== "deny" && !answers) return "answers_required";
    this.#resolve(approvalId, decision, message, "user", decision === "deny" ? undefined : answers);
    return "answered";
  }

  /** The requests still waiting, oldest first. */
  pending(): PendingApproval[] {
    return [...this.#waiting.values()].map((waiting) => waiting.request);
  }

  /** The run is ending (canceled, finished, failed): deny every open request, and every later one at once. */
  close(): void {
    this.#closed = true;
    for (const approvalId of [...this.#waiting.keys()]) this.#resolve(approvalId, "deny", undefined, "cancel");
  }

  #resolve(approvalId: string, decision: ApprovalDecision, message: string | undefined, by: ApprovalResolvedBy, answers?: QuestionAnswers): void {
    const waiting = this.#waiting.get(approvalId);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.#waiting.delete(approvalId);
    this.#answered.add(approvalId);
    if (decision === "allow_run") this.#allowedForRun.add(waiting.key);
    this.options.emit({ type: "approval_resolved", approvalId, decision, by, ...(answers ? { answers } : {}) });
    const skipped = waiting.request.kind === "question" && by === "user" ? QUESTION_SKIPPED : DENIED_BECAUSE[by];
    waiting.settle(decision === "deny" ? { decision, message: message?.trim() || skipped } : { decision, ...(answers ? { answers } : {}) });
  }
}
