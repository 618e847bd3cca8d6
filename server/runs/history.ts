/**
 * A run's history for the page (`GET /api/runs/:id/history`): its stored RunEvents, which the page folds with the
 * same fold as the live stream, so a reloaded turn is the live turn by construction. Two things keep a long
 * conversation cheap to load, and neither changes what the fold makes of the events:
 * - adjacent deltas of one stream (answer text, thinking, one call's input, stdout, stderr) are coalesced into one
 *   event carrying the first one's id and ts — the fold appends them to the same item in the same order;
 * - past `maxChars` characters of such text (and tool inputs and results), a run's history is cut: the rest of its deltas are left
 *   out and an `output_truncated` diagnostic marks the cut (with a link to the whole answer when od spilled it to
 *   disk). Every other event is kept, so calls, usage, errors and the end still show.
 *
 * The marker takes the id and ts of the first delta it replaces: ids stay increasing, which the fold relies on. (The
 * answer's end is not kept beside it, as a stored message keeps it: it would need an id of its own between those of
 * the events around it, and the whole answer is one link away.)
 */
import type { OutputTruncatedDetail, RunEvent } from "../contracts/runs.ts";
import { OUTPUT_TRUNCATED, outputTruncatedMessage } from "../contracts/output-truncated.ts";

export type HistoryOptions = {
  /** Characters of deltas and tool inputs and results kept before the cut (default 4 M, what a stored message keeps). */
  maxChars?: number;
  /** The whole answer is on disk (`GET /api/runs/:id/output`): the cut links to it. */
  fullOutput?: boolean;
};

/** A tool result after the cut keeps this much of its content, as a stored message does; a larger input is left out. */
const CALL_CHARS_AFTER_CUT = 20_000;

/** Where the `output_truncated` marker sits, and the id and ts it took from the first delta left out. */
type Marker = { index: number; id: number; ts: number };

export class RunHistory {
  readonly #events: RunEvent[] = [];
  readonly #maxChars: number;
  readonly #fullOutput: boolean;
  #keptChars = 0;
  #keptTextChars = 0;
  #totalTextChars = 0;
  /** Past `maxChars`: from here on deltas are left out. */
  #cut = false;
  #marker: Marker | undefined;

  constructor(options: HistoryOptions = {}) {
    this.#maxChars = options.maxChars ?? 4_000_000;
    this.#fullOutput = options.fullOutput ?? false;
  }

  push(event: RunEvent): void {
    const text = streamText(event);
    const answerText = event.type === "agent" && event.event.type === "text_delta";
    if (answerText) this.#totalTextChars += text!.length;
    const chars = text?.length ?? callChars(event);
    if (!this.#cut && this.#keptChars + chars > this.#maxChars) this.#cut = true;
    if (this.#cut) return this.#pushAfterCut(event);
    this.#keptChars += chars;
    if (answerText) this.#keptTextChars += text!.length;
    const last = this.#events[this.#events.length - 1];
    if (text !== undefined && last && sameStream(last, event)) this.#events[this.#events.length - 1] = appended(last, text);
    else this.#events.push(event);
  }

  /** The history so far; after a cut, with its marker's counts filled in. */
  get events(): RunEvent[] {
    const marker = this.#marker;
    if (!marker) return this.#events;
    const detail: OutputTruncatedDetail = {
      omittedChars: this.#totalTextChars - this.#keptTextChars,
      totalChars: this.#totalTextChars,
      fullOutput: this.#fullOutput,
    };
    const events = this.#events.slice();
    events[marker.index] = { type: "diagnostic", id: marker.id, ts: marker.ts, kind: OUTPUT_TRUNCATED, message: outputTruncatedMessage(detail), detail };
    return events;
  }

  /**
   * After the cut: deltas are left out, the first one replaced by the marker (a placeholder until `events` is read:
   * its counts are known only once the whole run has been pushed); everything else is kept, tool calls bounded.
   */
  #pushAfterCut(event: RunEvent): void {
    if (streamText(event) !== undefined) {
      if (this.#marker) return;
      this.#marker = { index: this.#events.length, id: event.id, ts: event.ts };
      this.#events.push({ type: "diagnostic", id: event.id, ts: event.ts, kind: OUTPUT_TRUNCATED, message: "" });
      return;
    }
    this.#events.push(shortened(event));
  }
}

/** Characters a tool call's input or result holds (0 for any other event). */
function callChars(event: RunEvent): number {
  if (event.type !== "agent") return 0;
  if (event.event.type === "tool_result") return event.event.content.length;
  if (event.event.type === "tool_use") return JSON.stringify(event.event.input ?? null).length;
  return 0;
}

/**
 * A call after the cut, bounded: a long result keeps its beginning; a large input (a runaway agent writing huge files)
 * is replaced by a note, the call keeping its name, kind and path, so its card still shows what it acted on.
 */
function shortened(event: RunEvent): RunEvent {
  if (event.type !== "agent" || callChars(event) <= CALL_CHARS_AFTER_CUT) return event;
  if (event.event.type === "tool_result") return { ...event, event: { ...event.event, content: event.event.content.slice(0, CALL_CHARS_AFTER_CUT) } };
  if (event.event.type === "tool_use") return { ...event, event: { ...event.event, input: { omitted: `${callChars(event).toLocaleString("en")} characters of input are left out here` } } };
  return event;
}

/** The text a delta-like event appends to the view (undefined for any other event). */
function streamText(event: RunEvent): string | undefined {
  if (event.type === "stdout" || event.type === "stderr") return event.chunk;
  if (event.type !== "agent") return undefined;
  const inner = event.event;
  return inner.type === "text_delta" || inner.type === "thinking_delta" || inner.type === "tool_input_delta" ? inner.delta : undefined;
}

/** Whether `next` continues the stream `last` is of: the same event type, and the same call for tool input. */
function sameStream(last: RunEvent, next: RunEvent): boolean {
  if (last.type === "stdout" || last.type === "stderr") return next.type === last.type;
  if (last.type !== "agent" || next.type !== "agent") return false;
  const a = last.event;
  const b = next.event;
  if (a.type === "tool_input_delta") return b.type === "tool_input_delta" && b.id === a.id && b.name === a.name;
  return (a.type === "text_delta" || a.type === "thinking_delta") && b.type === a.type;
}

/** `last` with `text` appended to its delta (a new object: the caller's events are never changed). */
function appended(last: RunEvent, text: string): RunEvent {
  if (last.type === "stdout" || last.type === "stderr") return { ...last, chunk: last.chunk + text };
  if (last.type === "agent" && "delta" in last.event) return { ...last, event: { ...last.event, delta: last.event.delta + text } };
  return last;
}
