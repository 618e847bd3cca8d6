/**
 * The conversation before a run, as the run needs it: how many turns, whether one is an answer, and the turns
 * themselves, read only when a prompt must carry them. A run that continues the agent's own session (a session id
 * kept for its CLI) never does, and reading a long conversation's turns costs its creation milliseconds (an answer's
 * text is worked out of its stored events: ~8 ms before the agent started after 20 turns of 1,000-line answers).
 */
import type { MessagesRepo } from "../store/projects-repo.ts";
import type { TranscriptTurn } from "./prompt.ts";

export type ConversationHistory = {
  /** The conversation's turns before this run's. */
  readonly turns: number;
  /** One of them is an answer. */
  readonly answered: boolean;
  /** The turns themselves, read at the first call. */
  transcript(): readonly TranscriptTurn[];
};

export const NO_HISTORY: ConversationHistory = { turns: 0, answered: false, transcript: () => [] };

/** The history of `conversationId` before `messageId` (the run's own question), of which `earlier` was counted. */
export function historyBefore(
  messages: Pick<MessagesRepo, "transcript">,
  conversationId: string,
  messageId: string,
  earlier: { turns: number; answered: boolean } | undefined,
): ConversationHistory {
  if (!earlier?.turns) return NO_HISTORY;
  let read: readonly TranscriptTurn[] | undefined;
  return { turns: earlier.turns, answered: earlier.answered, transcript: () => (read ??= messages.transcript(conversationId, messageId)) };
}
