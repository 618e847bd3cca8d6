/**
 * Where a run's fold puts a long text or thinking part as it grows (see TextBuffer): the answer's message, a piece at
 * a time (migration 18), instead of the run's memory until its end. The fold gives each part a key of its own; the
 * part it stores keeps the key (`pieced`) and what came after the last piece, and readers join the two
 * (server/store/message-text.ts).
 */
import type { MessagesRepo } from "../store/projects-repo.ts";

export interface TextPieces {
  /** Stores `piece` after the pieces of the part keyed `key`; false when it could not be (the fold then holds the text). */
  store(key: number, piece: string): boolean;
  /** The text of the part's pieces, in order ("" when it has none). */
  read(key: number): string;
}

/**
 * The pieces of one answer's message. A piece that cannot be stored (a full disk) is said to `onError` once and no
 * more are tried, nor any once `stopped` says so (the run's other writes failed: what room is left is its last
 * records'): the fold holds the rest of the text, and what was stored stays the part's beginning.
 */
export class MessageTextPieces implements TextPieces {
  readonly #nextSeq = new Map<number, number>();
  #failed = false;

  constructor(
    private readonly messages: MessagesRepo,
    private readonly messageId: string,
    private readonly onError: (error: unknown) => void,
    private readonly stopped: () => boolean = () => false,
  ) {}

  /**
   * The message's pieces started over, for a fold made again from its run's stored events (a lost run's recovery); a
   * piece that cannot be stored leaves the text to that fold, which writes it with its events.
   */
  static afresh(messages: MessagesRepo, messageId: string): MessageTextPieces {
    messages.dropTextPieces(messageId);
    return new MessageTextPieces(messages, messageId, () => {});
  }

  store(key: number, piece: string): boolean {
    if (this.#failed || this.stopped()) return false;
    const seq = this.#nextSeq.get(key) ?? 0;
    try {
      this.messages.addTextPiece(this.messageId, key, seq, piece);
    } catch (error) {
      this.#failed = true;
      this.onError(error);
      return false;
    }
    this.#nextSeq.set(key, seq + 1);
    return true;
  }

  read(key: number): string {
    return this.messages.textPieces(this.messageId, key);
  }
}
