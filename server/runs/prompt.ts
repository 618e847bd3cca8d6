/**
 * The prompt a run sends. With a native session the agent remembers the conversation itself and gets only the
 * new message; otherwise the prompt carries the conversation so far.
 */
import type { Message } from "../contracts/projects.ts";

/** Older turns beyond this many characters are dropped from the transcript (oldest first). */
const MAX_TRANSCRIPT_CHARS = 200_000;

/** One turn of a conversation as a transcript shows it. */
export type TranscriptTurn = Pick<Message, "role" | "text">;

export type PromptParts = {
  message: string;
  /** Earlier messages of the conversation (not including `message`). */
  history: readonly TranscriptTurn[];
  /** Send the history in the prompt (no native session to continue). */
  includeTranscript: boolean;
  /** Instructions placed before everything else (skills, project notes). */
  systemPreamble?: string;
};

export function composePrompt(parts: PromptParts): string {
  const sections: string[] = [];
  if (parts.systemPreamble?.trim()) sections.push(parts.systemPreamble.trim());
  const transcript = parts.includeTranscript ? renderTranscript(parts.history) : "";
  if (transcript) {
    sections.push(`## Conversation so far\n\n${transcript}`, `## Current request\n\n${parts.message}`);
  } else {
    sections.push(parts.message);
  }
  return sections.join("\n\n");
}

function renderTranscript(history: readonly TranscriptTurn[]): string {
  const turns = history
    .filter((m) => m.text.trim())
    .map((m) => `**${m.role === "user" ? "User" : "Assistant"}:** ${m.text.trim()}`);
  let total = 0;
  const kept: string[] = [];
  for (const turn of turns.reverse()) {
    total += turn.length;
    if (total > MAX_TRANSCRIPT_CHARS) break;
    kept.unshift(turn);
  }
  if (kept.length < turns.length) kept.unshift(`_(${turns.length - kept.length} earlier messages omitted)_`);
  return kept.join("\n\n");
}
