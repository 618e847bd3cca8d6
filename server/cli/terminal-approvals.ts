/**
 * `od run --permission-mode ask`: the run's approval requests asked on the terminal, one at a time, in the order the
 * agent asked them — `y` allow once, `a` allow for the rest of the run, `n` deny (then a reason for the agent).
 * A question of the agent's (AskUserQuestion) is answered by an option's number (several, comma-separated, where it
 * takes several) or in the person's own words; an empty line skips it.
 * Without a terminal nobody can answer: each request is denied at once, and stderr says so.
 */
import type { AgentQuestion, ApprovalDecision, QuestionAnswers } from "../contracts/approvals.ts";
import type { AgentEventOf } from "../contracts/events.ts";

export type ApprovalRequest = AgentEventOf<"approval_request">;

/** Where answers go (the run service's `answerApproval`); its result says whether the request was still open. */
export type AnswerApproval = (approvalId: string, decision: ApprovalDecision, message?: string, answers?: QuestionAnswers) => string;

type TerminalAnswer = { decision: ApprovalDecision; message?: string; answers?: QuestionAnswers };

/** Said to the agent when nobody could be asked. */
export const NO_TERMINAL_DENIAL = "od run has no terminal to ask on, so this tool call was denied.";

/** Reads whole lines from a byte stream, one per call; undefined once it ended. */
export function lineReader(stream: AsyncIterable<Uint8Array>): () => Promise<string | undefined> {
  const iterator = stream[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  let buffered = "";
  let ended = false;
  return async () => {
    for (;;) {
      const newline = buffered.indexOf("\n");
      if (newline !== -1) {
        const line = buffered.slice(0, newline).replace(/\r$/, "");
        buffered = buffered.slice(newline + 1);
        return line;
      }
      if (ended) {
        const rest = buffered;
        buffered = "";
        return rest ? rest : undefined;
      }
      const next = await iterator.next();
      if (next.done) ended = true;
      else buffered += decoder.decode(next.value, { stream: true });
    }
  };
}

/** One question, its options numbered; the answer is the chosen labels, the person's own words, or undefined (skipped). */
async function askQuestion(question: AgentQuestion, readLine: () => Promise<string | undefined>, write: (text: string) => void): Promise<string | undefined> {
  write(`\n${question.header ? `[${question.header}] ` : ""}${question.question}\n`);
  question.options.forEach((option, index) => write(`  ${index + 1}) ${option.label}${option.description ? ` — ${option.description}` : ""}\n`));
  write(question.multiSelect ? "Numbers (comma-separated), your own answer, or empty to skip: " : "A number, your own answer, or empty to skip: ");
  const reply = (await readLine())?.trim();
  if (!reply) return undefined;
  const numbers = reply.split(",").map((part) => part.trim());
  const chosen = numbers.every((part) => /^\d+$/.test(part)) ? numbers.map((part) => question.options[Number(part) - 1]?.label) : [];
  if (chosen.length && chosen.every((label) => label !== undefined) && (question.multiSelect || chosen.length === 1)) return chosen.join(", ");
  return reply;
}

/** Asks about one request until the answer is one of y/a/n (a question: each of its questions); the end of input denies. */
export async function askOnTerminal(request: ApprovalRequest, readLine: () => Promise<string | undefined>, write: (text: string) => void): Promise<TerminalAnswer> {
  if (request.kind === "question") {
    write(`\nod: ${request.toolName} asks you:\n`);
    const answers: QuestionAnswers = {};
    for (const question of request.questions ?? []) {
      const answer = await askQuestion(question, readLine, write);
      if (answer !== undefined) answers[question.question] = answer;
    }
    return Object.keys(answers).length ? { decision: "allow_once", answers } : { decision: "deny" };
  }
  write(`\nod: ${request.toolName} wants to ${describe(request)}: ${request.title}\n`);
  for (;;) {
    write("Allow? [y] once, [a] for this run, [n] deny: ");
    const reply = await readLine();
    if (reply === undefined) return { decision: "deny", message: NO_TERMINAL_DENIAL };
    const choice = reply.trim().toLowerCase();
    if (choice === "y" || choice === "yes") return { decision: "allow_once" };
    if (choice === "a" || choice === "always") return { decision: "allow_run" };
    if (choice === "n" || choice === "no") {
      write("Reason for the agent (optional): ");
      const reason = (await readLine())?.trim();
      return reason ? { decision: "deny", message: reason } : { decision: "deny" };
    }
  }
}

/**
 * Returns what the run's printer calls with each approval request: asked in turn on the terminal (`readLine` set),
 * or denied at once with a line on stderr (no terminal).
 */
export function terminalApprovals(options: { readLine?: () => Promise<string | undefined>; stderr: (text: string) => void; answer: AnswerApproval }): (request: ApprovalRequest) => void {
  let queue = Promise.resolve();
  return (request) => {
    const { readLine } = options;
    if (!readLine) {
      options.answer(request.approvalId, "deny", NO_TERMINAL_DENIAL);
      options.stderr(`od: denied ${request.toolName} (${request.title}): no terminal to ask on; use --permission-mode bypass or run od in a terminal\n`);
      return;
    }
    queue = queue.then(async () => {
      const { decision, message, answers } = await askOnTerminal(request, readLine, options.stderr);
      if (options.answer(request.approvalId, decision, message, answers) !== "answered") options.stderr("od: that request was already answered (timed out or canceled)\n");
    });
  };
}

function describe(request: ApprovalRequest): string {
  switch (request.kind) {
    case "command":
      return "run a command";
    case "edit":
      return "change a file";
    case "read":
      return "read";
    case "fetch":
      return "fetch";
    case "mcp":
      return "call an MCP tool";
    default:
      return "act";
  }
}
