/**
 * Folds a run's AgentEvents into the compact form stored on the assistant message: merged text and thinking,
 * tool calls with their results, usage, errors and artifacts. Deltas and live-only events are not kept.
 *
 * The fold is bounded (issue #17): once it holds `maxKeptChars` characters of text, thinking, tool inputs and
 * results, it keeps only the answer's last `tailChars` characters and the small events (usage, errors, artifacts,
 * notable statuses), and marks the cut with a `truncated` event. The whole answer text goes to `spill` from then on
 * (beginning first), so it can be paged from disk instead.
 *
 * With `pieces`, a long text or thinking part is not held until the run's end either: its text goes to the pieces as
 * it grows (see TextBuffer), and the part keeps only what came after its last piece, with `pieced` naming where the
 * rest is. That is how the store keeps it (server/store/message-text.ts joins the two back).
 */
import type { AgentEvent } from "../contracts/events.ts";
import { omittedTextLine } from "../contracts/omitted-text.ts";
import type { PersistedEvent } from "../contracts/projects.ts";
import { TailText } from "./tail-text.ts";
import { TextBuffer } from "./text-buffer.ts";
import type { TextPieces } from "./text-pieces.ts";
import { perEvent } from "../platform/jit-tiers.ts";

/** A text or thinking part; `pieced`: the key of its pieces, when the beginning of its text is there (see TextPieces). */
type MergedPart = Extract<PersistedEvent, { type: "text" | "thinking" }> & { pieced?: number };

/** Where the answer text goes once the fold is cut: everything so far at once, then each later delta. */
export interface TextSpill {
  write(text: string): void;
}

export type FoldOptions = {
  /**
   * Characters kept before the cut (default 4 M): room for a long session's tool results (each cut at 20 K), far
   * below the hundreds of MB a runaway agent can print.
   */
  maxKeptChars?: number;
  /** Answer characters kept from the end after the cut (default 256 K). */
  tailChars?: number;
  spill?: TextSpill;
  /** Where a long part's text goes as it grows, instead of being held (the answer's stored pieces). */
  pieces?: TextPieces;
};

/** Most small events (usage, errors, artifacts, statuses) kept after the cut. */
const MAX_EVENTS_AFTER_CUT = 1000;

/** After the cut: the answer's end, the small events kept, and how many others were left out. */
type Cut = { tail: TailText; after: PersistedEvent[]; omittedEvents: number; inThinking: boolean };

export class EventFolder {
  static {
    perEvent(this.prototype.push, smallEvent);
  }

  readonly #events: PersistedEvent[] = [];
  readonly #maxKeptChars: number;
  readonly #tailChars: number;
  readonly #spill: TextSpill | undefined;
  readonly #pieces: TextPieces | undefined;
  /** The key the next text or thinking part's pieces get. */
  #nextPartKey = 0;
  /** The last folded event while it is a text or thinking part still taking deltas, and its buffered text. */
  #open: { part: MergedPart; text: TextBuffer } | undefined;
  /** Characters held by the folded events (text, thinking, tool inputs and results). */
  #keptChars = 0;
  /** Characters of text and thinking that went to the pieces. */
  #piecedChars = 0;
  /** Answer characters seen, and how many of them the parts before the cut hold. */
  #totalTextChars = 0;
  #keptTextChars = 0;
  #cut: Cut | undefined;

  constructor(options: FoldOptions = {}) {
    this.#maxKeptChars = options.maxKeptChars ?? 4_000_000;
    this.#tailChars = options.tailChars ?? 256_000;
    this.#spill = options.spill;
    this.#pieces = options.pieces;
    perEvent(this.#keep, this.#merge, this.#add, this.#pushAfterCut); // private methods: only an instance reaches them
  }

  /**
   * Characters the folded events hold in memory (text, thinking, tool inputs and results, less what went to the
   * pieces): what writing them copies.
   */
  get heldChars(): number {
    return this.#keptChars - this.#piecedChars;
  }

  /** Whether the fold was cut (the answer was larger than it keeps). */
  get truncated(): boolean {
    return this.#cut !== undefined;
  }

  /**
   * The folded events so far (the open text or thinking part carries its text up to now). A part whose text went to
   * the pieces carries what came after them, and their key as `pieced`.
   */
  get events(): PersistedEvent[] {
    if (this.#open) this.#open.part.text = this.#open.text.toString();
    if (!this.#cut) return this.#events;
    const tail = this.#cut.tail.toString();
    const marker: PersistedEvent = {
      type: "truncated",
      omittedChars: this.#totalTextChars - this.#keptTextChars - tail.length,
      totalChars: this.#totalTextChars,
      omittedEvents: this.#cut.omittedEvents,
      fullOutput: this.#spill !== undefined,
    };
    return [...this.#events, marker, ...(tail ? [{ type: "text" as const, text: tail }] : []), ...this.#cut.after];
  }

  /**
   * The assistant's visible answer so far: its text parts joined (after a cut: the kept beginning, a line saying how
   * much is left out, and the kept end). Derived rather than kept beside the parts, so a streaming answer is held in
   * memory once, not twice; the store derives it from the stored events by the same rule (server/store/message-text.ts).
   */
  get text(): string {
    return textOf(this.events, (part) => this.#piecedText(part));
  }

  push(event: AgentEvent): void {
    if (this.#cut) {
      if (event.type === "text_delta") this.#totalTextChars += event.delta.length;
      return this.#pushAfterCut(this.#cut, event);
    }
    switch (event.type) {
      case "text_delta": {
        this.#totalTextChars += event.delta.length;
        const room = this.#maxKeptChars - this.#keptChars;
        if (event.delta.length <= room) {
          this.#keptTextChars += event.delta.length;
          this.#keep(event.delta.length);
          this.#merge("text", event.delta);
          return;
        }
        const kept = event.delta.slice(0, Math.max(0, room));
        if (kept) {
          this.#keptTextChars += kept.length;
          this.#merge("text", kept);
        }
        this.#startCut(event.delta.slice(kept.length));
        return;
      }
      case "thinking_delta":
        this.#merge("thinking", event.delta);
        this.#keep(event.delta.length);
        return;
      case "tool_use":
        this.#add({ type: "tool_use", id: event.id, name: event.name, input: event.input, kind: event.kind, ...(event.path ? { path: event.path } : {}), ...parentOf(event) });
        this.#keep(JSON.stringify(event.input ?? null).length);
        return;
      case "tool_result": {
        const content = event.content.slice(0, 20_000);
        this.#add({
          type: "tool_result",
          toolUseId: event.toolUseId,
          content,
          ...(event.isError ? { isError: true } : {}),
          ...(event.exitCode !== undefined ? { exitCode: event.exitCode } : {}),
          ...parentOf(event),
        });
        this.#keep(content.length);
        return;
      }
      case "usage":
      case "error":
      case "artifact":
      case "status": {
        const small = smallEvent(event);
        if (small) this.#add(small);
        return;
      }
      case "thinking_start":
      case "thinking_end":
      case "thinking_tokens":
      case "tool_input_delta":
      case "turn_end":
      case "raw":
        return;
    }
  }

  /** Counts kept characters; past the limit the fold is cut. */
  #keep(chars: number): void {
    this.#keptChars += chars;
    if (this.#keptChars > this.#maxKeptChars && !this.#cut) this.#startCut("");
  }

  /** From now on only the answer's end and the small events are kept; the spill gets the whole answer. */
  #startCut(rest: string): void {
    if (this.#open) {
      this.#open.part.text = this.#open.text.toString();
      this.#open = undefined;
    }
    const cut: Cut = { tail: new TailText(this.#tailChars), after: [], omittedEvents: 0, inThinking: false };
    this.#cut = cut;
    if (this.#spill) {
      for (const event of this.#events) if (event.type === "text") this.#spill.write(this.#piecedText(event) + event.text);
    }
    if (rest) this.#pushAfterCut(cut, { type: "text_delta", delta: rest });
  }

  /** After the cut: answer text feeds the tail and the spill; small events are kept (up to a limit); the rest is left out. */
  #pushAfterCut(cut: Cut, event: AgentEvent): void {
    const thinking = event.type === "thinking_delta";
    // A stretch of thinking counts as one left-out event, as it would have been one folded part.
    if (thinking && !cut.inThinking) cut.omittedEvents++;
    cut.inThinking = thinking;
    if (event.type === "text_delta") {
      cut.tail.append(event.delta);
      this.#spill?.write(event.delta);
      return;
    }
    if (event.type === "tool_use" || event.type === "tool_result") {
      cut.omittedEvents++;
      return;
    }
    const small = smallEvent(event);
    if (!small) return;
    if (cut.after.length < MAX_EVENTS_AFTER_CUT) cut.after.push(small);
    else cut.omittedEvents++;
  }

  /** Deltas of one kind in a row fold into one part; any other folded event ends it. */
  #merge(type: MergedPart["type"], delta: string): void {
    if (this.#open?.part.type === type) {
      this.#open.text.append(delta);
      return;
    }
    const part: MergedPart = { type, text: delta };
    this.#add(part);
    this.#open = { part, text: new TextBuffer(delta, this.#pieces && this.#storeOut(part, this.#pieces)) };
  }

  /** Stores a part's text a piece at a time, under a key of its own (its first stored piece marks the part `pieced`). */
  #storeOut(part: MergedPart, pieces: TextPieces): (piece: string) => boolean {
    const key = this.#nextPartKey++;
    return (piece) => {
      if (!pieces.store(key, piece)) return false;
      part.pieced = key;
      this.#piecedChars += piece.length;
      return true;
    };
  }

  /** The beginning of a part's text that went to the pieces ("" when none did). */
  #piecedText(part: MergedPart): string {
    return part.pieced === undefined || !this.#pieces ? "" : this.#pieces.read(part.pieced);
  }

  #add(event: PersistedEvent): void {
    if (this.#open) {
      this.#open.part.text = this.#open.text.toString();
      this.#open = undefined;
    }
    this.#events.push(event);
  }
}

/** The folded form of an event that stays small whatever the run's size (usage, errors, artifacts, notable statuses). */
function smallEvent(event: AgentEvent): PersistedEvent | undefined {
  switch (event.type) {
    case "usage":
      return {
        type: "usage",
        ...(event.usage?.input_tokens !== undefined ? { inputTokens: event.usage.input_tokens } : {}),
        ...(event.usage?.output_tokens !== undefined ? { outputTokens: event.usage.output_tokens } : {}),
        ...(event.costUsd !== undefined ? { costUsd: event.costUsd } : {}),
        ...(event.durationMs !== undefined ? { durationMs: event.durationMs } : {}),
      };
    case "error":
      return { type: "error", message: event.message, ...(event.code ? { code: event.code } : {}) };
    case "artifact":
      return { type: "artifact", name: event.name, ...(event.path ? { path: event.path } : {}) };
    case "status":
      if (event.label === "warning" || event.label === "retrying" || event.label === "compacting") {
        return { type: "status", label: event.label, ...(event.detail ? { detail: event.detail } : {}) };
      }
      return undefined;
    default:
      return undefined;
  }
}

/** Keeps a sub-agent's link to the call that started it. */
function parentOf(event: { parentToolUseId?: string }): { parentToolUseId?: string } {
  return event.parentToolUseId ? { parentToolUseId: event.parentToolUseId } : {};
}

/**
 * The visible answer of folded events: their text parts joined (a pieced part's pieces first, from `piecedText`), a cut
 * marked by a line saying how much is left out.
 */
function textOf(events: readonly PersistedEvent[], piecedText: (part: MergedPart) => string): string {
  let text = "";
  for (const event of events) {
    if (event.type === "text") text += piecedText(event) + event.text;
    else if (event.type === "truncated" && event.omittedChars > 0) text += omittedTextLine(event.omittedChars);
  }
  return text;
}
