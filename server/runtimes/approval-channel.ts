/**
 * What a transport that can ask before its agent acts needs from the run: one `ask` callback. The transport turns its
 * CLI's question (a Claude `can_use_tool`, an ACP `session/request_permission`, …) into an `ApprovalQuestion`, awaits
 * the answer, and writes it back in its CLI's words. Who answers (a person, a timeout, the read-only rule) is the
 * run's business (server/runs/approvals.ts), never the transport's.
 */
import type { AgentQuestion, ApprovalDecision, ApprovalKind, QuestionAnswers } from "../contracts/approvals.ts";
import { classifyTool, isRecord } from "./streams/tool-kind.ts";

export type ApprovalQuestion = {
  /** The CLI's own tool name. */
  toolName: string;
  kind: ApprovalKind;
  /** One line for people: the command, the file, the URL. */
  title: string;
  input: unknown;
  /**
   * For commands: the prefix an `allow_run` answer allows for the rest of the run (`npm test` of `npm test -- -u`).
   * Absent: `allow_run` allows the tool itself.
   */
  commandPrefix?: string;
  /** Kind `question`: what the agent asks the person. */
  questions?: AgentQuestion[];
};

/** The decision, for `deny` the words the agent is told (it goes on with its turn), for a question its answers. */
export type ApprovalAnswer = { decision: ApprovalDecision; message?: string; answers?: QuestionAnswers };

export type AskApproval = (question: ApprovalQuestion) => Promise<ApprovalAnswer>;

/** Tool-call kinds (events.ts `ToolKind`) as the kinds a person approves. */
export function approvalKindOfTool(kind: string): ApprovalKind {
  switch (kind) {
    case "command":
      return "command";
    case "file_write":
    case "file_edit":
      return "edit";
    case "file_read":
    case "search":
      return "read";
    case "web":
      return "fetch";
    case "mcp":
      return "mcp";
    default:
      return "other";
  }
}

/** The first two words of a command (`git status`, `npm test`): what `allow_run` remembers of it. */
export function commandPrefixOf(command: string): string | undefined {
  const words = command.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return undefined;
  const second = words[1];
  return second && /^[\w.:@/-]+$/.test(second) && !second.startsWith("-") ? `${words[0]} ${second}` : words[0];
}

/** The name of Claude Code's tool that asks the person questions (options to choose from, or their own words). */
export const ASK_USER_QUESTION_TOOL = "AskUserQuestion";

/** AskUserQuestion's questions, read leniently (a missing header or description is fine; a malformed one is left out). */
export function agentQuestionsOf(input: unknown): AgentQuestion[] {
  const questions = isRecord(input) && Array.isArray(input.questions) ? input.questions : [];
  return questions.flatMap((entry): AgentQuestion[] => {
    if (!isRecord(entry) || typeof entry.question !== "string") return [];
    const options = Array.isArray(entry.options) ? entry.options : [];
    return [
      {
        question: entry.question,
        ...(typeof entry.header === "string" ? { header: entry.header } : {}),
        multiSelect: entry.multiSelect === true,
        options: options.flatMap((option) =>
          isRecord(option) && typeof option.label === "string"
            ? [{ label: option.label, ...(typeof option.description === "string" ? { description: option.description } : {}) }]
            : typeof option === "string"
              ? [{ label: option }]
              : [],
        ),
      },
    ];
  });
}

/** The question about one tool call, from the CLI's tool name and arguments (its kind as tool_use events have it). */
export function questionForTool(toolName: string, input: unknown, cwd?: string): ApprovalQuestion {
  if (toolName === ASK_USER_QUESTION_TOOL) {
    const questions = agentQuestionsOf(input);
    const title = questions.length === 1 ? questions[0]!.question : `${questions.length} questions`;
    return { toolName, kind: "question", title: title.length > 300 ? `${title.slice(0, 299)}…` : title, input, questions };
  }
  const { kind, path } = classifyTool(toolName, input, cwd);
  const args = isRecord(input) ? input : {};
  const command = typeof args.command === "string" ? args.command : Array.isArray(args.command) ? args.command.join(" ") : undefined;
  const url = typeof args.url === "string" ? args.url : undefined;
  const approvalKind = approvalKindOfTool(kind);
  const title = (approvalKind === "command" && command) || path || url || command || toolName;
  const prefix = approvalKind === "command" && command ? commandPrefixOf(command) : undefined;
  return { toolName, kind: approvalKind, title: title.length > 300 ? `${title.slice(0, 299)}…` : title, input, ...(prefix ? { commandPrefix: prefix } : {}) };
}
