/**
 * A question the agent asks the person (Claude Code's AskUserQuestion, in an `ask` or `read-only` run): each question
 * with its options (one, or several where it takes several) and a field for the person's own words; Answer sends
 * what was chosen, Skip lets the agent go on without. Once answered it shows the answers the agent got.
 */
import { useContext, useState } from "preact/hooks";
import type { AgentQuestion, QuestionAnswers } from "../../server/contracts/approvals.ts";
import type { ApprovalItem } from "../state/run-state.ts";
import { ApprovalAnswerContext } from "./approval-card.tsx";
import { isTextLists, isTexts, useKeptState } from "./kept-state.ts";

const BY_LABELS = { user: "by you", timeout: "after no answer in time", cancel: "when the run was canceled" } as const;

/** What one question's choices and own words answer: the own words win, else the chosen labels joined. */
function answerOf(chosen: string[], own: string): string | undefined {
  if (own.trim()) return own.trim();
  return chosen.length ? chosen.join(", ") : undefined;
}

function QuestionFields({ question, index, chosen, own, onChoose, onOwn }: {
  question: AgentQuestion;
  index: number;
  chosen: string[];
  own: string;
  onChoose: (labels: string[]) => void;
  onOwn: (text: string) => void;
}) {
  const name = `question-${index}`;
  return (
    <fieldset class="question" data-testid="question">
      <legend>
        {question.header && <span class="question-header">{question.header}</span>} {question.question}
      </legend>
      {question.options.map((option) => (
        <label key={option.label} class="question-option">
          <input
            type={question.multiSelect ? "checkbox" : "radio"}
            name={name}
            data-testid="question-option"
            checked={chosen.includes(option.label)}
            onChange={(e) => {
              const on = (e.currentTarget as HTMLInputElement).checked;
              if (!question.multiSelect) onChoose(on ? [option.label] : []);
              else onChoose(on ? [...chosen, option.label] : chosen.filter((label) => label !== option.label));
            }}
          />
          <span>{option.label}</span>
          {option.description && <small class="muted"> — {option.description}</small>}
        </label>
      ))}
      <input type="text" class="question-own" data-testid="question-own" aria-label={`Your own answer to: ${question.question}`} placeholder="Or your own answer" value={own} onInput={(e) => onOwn((e.currentTarget as HTMLInputElement).value)} />
    </fieldset>
  );
}

export function QuestionCard({ item }: { item: ApprovalItem }) {
  const answer = useContext(ApprovalAnswerContext);
  const questions = item.questions ?? [];
  // Kept while the card scrolls out of the windowed list and back, and across a reload.
  const draftKey = `${item.runId}\n${item.approvalId}`;
  const [chosen, setChosen, forgetChosen] = useKeptState<string[][]>(`${draftKey}\nchosen`, () => questions.map(() => []), isTextLists(questions.length));
  const [own, setOwn, forgetOwn] = useKeptState<string[]>(`${draftKey}\nown`, () => questions.map(() => ""), isTexts(questions.length));
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = !item.decision && !item.closed;
  const state = item.decision ? `resolved-${item.decision}` : item.closed ? "closed" : "open";
  const answers: QuestionAnswers = {};
  questions.forEach((question, index) => {
    const given = answerOf(chosen[index] ?? [], own[index] ?? "");
    if (given !== undefined) answers[question.question] = given;
  });

  async function send(decision: "allow_once" | "deny"): Promise<void> {
    if (!answer) return;
    setSending(true);
    setError(null);
    try {
      await answer(item.runId, item.approvalId, decision, undefined, decision === "allow_once" ? answers : undefined);
      forgetChosen();
      forgetOwn();
    } catch (answerError) {
      setError(answerError instanceof Error ? answerError.message : String(answerError));
    } finally {
      setSending(false);
    }
  }

  return (
    <section class={`approval-card question-card state-${state}`} data-testid="approval-card" data-approval-id={item.approvalId} data-state={state} aria-label={`The agent asks you: ${item.title}`}>
      <header>
        <strong>{open ? "The agent asks you" : "The agent asked you"}</strong>
      </header>
      {open && answer ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void send("allow_once");
          }}
        >
          {questions.map((question, index) => (
            <QuestionFields
              key={question.question}
              question={question}
              index={index}
              chosen={chosen[index] ?? []}
              own={own[index] ?? ""}
              onChoose={(labels) => setChosen(chosen.map((current, at) => (at === index ? labels : current)))}
              onOwn={(text) => setOwn(own.map((current, at) => (at === index ? text : current)))}
            />
          ))}
          <div class="approval-actions" role="group" aria-label="Answer">
            <button type="submit" class="primary" data-testid="question-answer" disabled={sending || !Object.keys(answers).length}>
              Answer
            </button>
            <button type="button" data-testid="question-skip" disabled={sending} onClick={() => void send("deny")}>
              Skip
            </button>
            {error && <p class="error" role="alert">{error}</p>}
          </div>
        </form>
      ) : (
        <ul class="question-list">
          {questions.map((question) => (
            <li key={question.question}>
              {question.question}
              {item.answers?.[question.question] !== undefined && (
                <>
                  {" "}
                  answered <strong data-testid="question-answered">{item.answers[question.question]}</strong>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {item.decision && (
        <p class="approval-outcome" data-testid="approval-outcome">
          {item.decision === "deny" ? "Skipped" : "Answered"} {item.by ? BY_LABELS[item.by] : ""}
        </p>
      )}
      {!item.decision && item.closed && <p class="approval-outcome muted">Not answered: the run ended first.</p>}
    </section>
  );
}
