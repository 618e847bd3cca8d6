/**
 * A question the agent asked before it acts (a run in `ask` mode): what it wants to do (the command, the file and
 * its new content, the URL), and Allow once / Allow for this run / Deny with an optional message for the agent. Once
 * answered it says who decided what (you, the timeout, a cancel); a question its run ended on says so.
 */
import { createContext } from "preact";
import { useContext, useState } from "preact/hooks";
import type { ApprovalDecision, QuestionAnswers } from "../../server/contracts/approvals.ts";
import type { ApprovalItem } from "../state/run-state.ts";
import { isText, useKeptState } from "./kept-state.ts";

/** Sends a person's answer to one question of a run; resolves once od took it (it throws with od's reason if not). */
export type AnswerApproval = (runId: string, approvalId: string, decision: ApprovalDecision, message?: string, answers?: QuestionAnswers) => Promise<void>;

/** Where the cards send answers (the conversation's; absent, the cards are read-only). */
export const ApprovalAnswerContext = createContext<AnswerApproval | null>(null);

const DECISION_LABELS: Record<ApprovalDecision, string> = { allow_once: "Allow once", allow_run: "Allow for this run", deny: "Deny" };
const RESOLVED_LABELS: Record<ApprovalDecision, string> = { allow_once: "Allowed once", allow_run: "Allowed for this run", deny: "Denied" };
const BY_LABELS = { user: "by you", timeout: "after no answer in time", cancel: "when the run was canceled" } as const;

/** What the agent wants to do, as a person reads it: a command's text, a file's new content, else the input as JSON. */
export function approvalDetail(input: unknown): string {
  if (input && typeof input === "object") {
    const fields = input as Record<string, unknown>;
    for (const key of ["command", "cmd", "content", "new_string", "url", "query"]) if (typeof fields[key] === "string") return fields[key] as string;
  }
  return typeof input === "string" ? input : JSON.stringify(input, null, 2);
}

export function ApprovalCard({ item }: { item: ApprovalItem }) {
  const answer = useContext(ApprovalAnswerContext);
  // Kept while the card scrolls out of the windowed list and back, and across a reload.
  const [message, setMessage, forgetMessage] = useKeptState(`${item.runId}\n${item.approvalId}\nmessage`, () => "", isText);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = !item.decision && !item.closed;
  const state = item.decision ? `resolved-${item.decision}` : item.closed ? "closed" : "open";

  async function decide(decision: ApprovalDecision): Promise<void> {
    if (!answer) return;
    setSending(true);
    setError(null);
    try {
      await answer(item.runId, item.approvalId, decision, decision === "deny" && message.trim() ? message.trim() : undefined);
      forgetMessage();
    } catch (answerError) {
      setError(answerError instanceof Error ? answerError.message : String(answerError));
    } finally {
      setSending(false);
    }
  }

  const detail = approvalDetail(item.input);
  return (
    <section class={`approval-card state-${state}`} data-testid="approval-card" data-approval-id={item.approvalId} data-state={state} aria-label={`The agent asks: ${item.title}`}>
      <header>
        <strong>{open ? "The agent asks to" : "The agent asked to"}</strong> <span class="approval-kind">{item.approvalKind}</span>{" "}
        <code>{item.toolName}</code>
      </header>
      <p class="approval-title">{item.title}</p>
      {detail && detail !== item.title && <pre class="approval-input">{detail}</pre>}
      {open && answer && (
        <div class="approval-actions" role="group" aria-label="Answer">
          {item.options.map((decision) => (
            <button type="button" key={decision} class={decision === "deny" ? "danger" : decision === "allow_once" ? "primary" : ""} data-testid={`approval-${decision}`} disabled={sending} onClick={() => void decide(decision)}>
              {DECISION_LABELS[decision]}
            </button>
          ))}
          {item.options.includes("deny") && (
            <input type="text" class="approval-message" data-testid="approval-message" aria-label="Message to the agent if you deny" placeholder="Why not? (sent to the agent if you deny)" value={message} onInput={(e) => setMessage((e.currentTarget as HTMLInputElement).value)} />
          )}
          {error && <p class="error" role="alert">{error}</p>}
        </div>
      )}
      {item.decision && (
        <p class="approval-outcome" data-testid="approval-outcome">
          {RESOLVED_LABELS[item.decision]} {item.by ? BY_LABELS[item.by] : ""}
        </p>
      )}
      {!item.decision && item.closed && <p class="approval-outcome muted">Not answered: the run ended first.</p>}
    </section>
  );
}
