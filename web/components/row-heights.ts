/**
 * First guesses at how tall a row is before it was ever shown (the virtual lists measure it once it is): close
 * enough that the scrollbar does not jump much while scrolling through rows never seen. Pure but for the guesses it
 * keeps, by the row or turn object they were made for, so it is testable.
 */
import { editDiff } from "../lib/edit-diff.ts";
import type { MdBlock, MdInline } from "../lib/markdown.ts";
import type { SectionOpen } from "../state/disclosures.ts";
import type { ApprovalItem, RunItem, RunState, ToolItem } from "../state/run-state.ts";
import { approvalDetail } from "./approval-card.tsx";
import { CHANGES_OPEN_AT_MOST } from "./changed-files.tsx";
import { SHORT_DIFF_LINES } from "./diff-view.tsx";
import { inputText, SHORT_OUTPUT_LINES } from "./tool-card.tsx";

/** Every section as it opens by itself (no choice of the reader's known). */
export const defaultSections: SectionOpen = (_rowKey, _section, byDefault) => byDefault;

const LINE_PX = 22;
const CHARS_PER_LINE = 90;

/** Lines of plain text, each wrapped at the column's width. */
function textLines(text: string): number {
  return wrappedLines(text, CHARS_PER_LINE);
}

/** Lines of text kept as written (`white-space: pre-wrap`), each wrapped after `perLine` characters. */
function wrappedLines(text: string, perLine: number): number {
  let lines = 0;
  for (const line of text.split("\n")) lines += Math.max(1, Math.ceil(line.length / perLine));
  return lines;
}

/** A thought's summary line; open, its text's padding, a line of it, and how many characters fill one (smaller type). */
const THINKING_PX = 15;
const THINKING_PAD_PX = 12;
const THINKING_LINE_PX = 15;
const THINKING_CHARS_PER_LINE = 110;

/** An answer's own padding, and the space between two of its paragraphs (or other blocks). */
const TEXT_PAD_PX = 3;
const BLOCK_GAP_PX = 14;
/** A line that starts a block of its own in Markdown: a list item, a heading, a quote. */
const BLOCK_START = /^\s*(?:[-*+]|\d+[.)]|#{1,6}|>)\s/;

/**
 * An answer's height as Markdown lays it out: a paragraph's lines flow together (a single newline is a space), a list
 * item, heading or code line starts a line of its own, and blocks stand apart.
 */
function answerPx(text: string): number {
  let lines = 0;
  let blocks = 0;
  let flowing = 0;
  let fenced = false;
  const endFlow = () => {
    if (flowing > 0) lines += Math.ceil(flowing / CHARS_PER_LINE);
    flowing = 0;
  };
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) {
      endFlow();
      if (!fenced) blocks++;
      fenced = !fenced;
      continue;
    }
    if (fenced) lines++;
    else if (!line.trim()) endFlow();
    else {
      if (flowing === 0 || BLOCK_START.test(line)) {
        endFlow();
        blocks++;
      }
      flowing += (flowing ? 1 : 0) + line.length;
    }
  }
  endFlow();
  return TEXT_PAD_PX + Math.max(1, lines) * LINE_PX + Math.max(0, blocks - 1) * BLOCK_GAP_PX;
}

/** A tool card's head and its folded "Input" line (run-view.css, measured in Chromium). */
const CARD_PX = 44;
/** A folded section's summary line: "Output · N lines". */
const OUTPUT_SUMMARY_PX = 14;
/** An open output or error: its padding and margins, a line of it, and its largest height (`.tool-output pre`). */
const OUTPUT_PAD_PX = 24;
const OUTPUT_LINE_PX = 14;
const OUTPUT_MAX_PX = 248;
/** A command's output section, its summary included, is at most this tall (`.tool-output`). */
const OUTPUT_SECTION_MAX_PX = 200;
/** A failed call's error text (`pre.tool-error`, outside any fold): its padding and margins. */
const ERROR_PAD_PX = 41;
/** A diff's summary line, an open diff's padding and one of its lines, and its largest height (a `pre`'s). */
const DIFF_SUMMARY_PX = 15;
const DIFF_PAD_PX = 17;
const DIFF_LINE_PX = 17.5;
const DIFF_MAX_PX = 366;
/** The folded input (and a file call's result) once opened: a `pre` each, at most its largest height. */
const IO_PRE_PAD_PX = 24;
const IO_LINE_PX = 17;
const IO_PRE_MAX_PX = 366;

function outputPx(lines: number): number {
  return Math.min(OUTPUT_MAX_PX, OUTPUT_PAD_PX + lines * OUTPUT_LINE_PX);
}

function diffPx(lines: number): number {
  return Math.min(DIFF_MAX_PX, DIFF_PAD_PX + lines * DIFF_LINE_PX);
}

function ioPrePx(text: string): number {
  return Math.min(IO_PRE_MAX_PX, IO_PRE_PAD_PX + Math.max(1, textLines(text)) * IO_LINE_PX);
}

function lineCount(text: string): number {
  return text === "" ? 0 : text.replace(/\n$/, "").split("\n").length;
}

/**
 * The diff a file call asks for: how many lines it has when it is short enough to open by itself, "long" when it is
 * not, undefined when the input carries none. A diff has at least as many lines as the input's longest side, so a
 * long one is known without working it out; only a short one is diffed here.
 */
function diffSize(input: unknown): number | "long" | undefined {
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  let longest = 0;
  for (const value of Object.values(fields)) if (typeof value === "string") longest = Math.max(longest, lineCount(value));
  if (longest > SHORT_DIFF_LINES) return "long";
  const lines = editDiff(input)?.length;
  return lines === undefined ? undefined : lines <= SHORT_DIFF_LINES ? lines : "long";
}

/** A command's text, when the call's input has one. */
function commandOf(input: unknown): string {
  const command = typeof input === "object" && input !== null ? (input as { command?: unknown }).command : undefined;
  return typeof command === "string" ? command : "";
}

/**
 * A tool card without a sub-agent: its head, its output or diff (open when short), its folded input; each section as
 * the reader left it where they chose (`sections`).
 */
function toolPx(item: ToolItem, sections: SectionOpen): number {
  let px = CARD_PX;
  // A command of several lines is shown whole above its output.
  const command = item.toolKind === "command" ? commandOf(item.input) : "";
  if (command.includes("\n")) px += outputPx(lineCount(command));
  const resultInDetails = item.toolKind !== "command" && item.result !== undefined;
  if (item.toolKind === "command" && item.result !== undefined) {
    const lines = lineCount(item.result);
    const open = sections(item.key, "output", item.state === "error" || lines <= SHORT_OUTPUT_LINES);
    px += Math.min(OUTPUT_SECTION_MAX_PX, OUTPUT_SUMMARY_PX + (open ? outputPx(lines) : 0));
  } else if (item.state === "error" && resultInDetails) px += ERROR_PAD_PX + lineCount(item.result!) * OUTPUT_LINE_PX;
  const diff = item.toolKind === "file_edit" || item.toolKind === "file_write" ? diffSize(item.input) : undefined;
  if (diff !== undefined) {
    px += DIFF_SUMMARY_PX;
    // A long diff is worked out only when the reader opened it.
    if (sections(item.key, "diff", diff !== "long")) px += diffPx(diff === "long" ? (editDiff(item.input)?.length ?? 0) : diff);
  }
  if (sections(item.key, "io", false)) px += ioPrePx(inputText(item)) + (resultInDetails && item.state !== "error" ? ioPrePx(item.result!) : 0);
  return px;
}

/** An approval card's header, title, outcome and padding; a question card's header, outcome and padding. */
const APPROVAL_PX = 79;
const QUESTION_PX = 42;
/** A question's line once answered; while open, its legend and own-words field, and each of its options. */
const ANSWERED_QUESTION_PX = 22;
const OPEN_QUESTION_PX = 57;
const OPTION_PX = 24;
/** The buttons of a card still waiting for its answer, less the outcome line it shows once answered. */
const APPROVAL_ACTIONS_PX = 12;

/** A question the agent asked before it acts (approval-card.tsx), or a question card (question-card.tsx). */
function approvalPx(item: ApprovalItem): number {
  const open = !item.decision && !item.closed;
  if (item.approvalKind === "question") {
    const questions = item.questions ?? [];
    if (!open) return QUESTION_PX + questions.length * ANSWERED_QUESTION_PX;
    return QUESTION_PX + APPROVAL_ACTIONS_PX + questions.reduce((px, question) => px + OPEN_QUESTION_PX + question.options.length * OPTION_PX, 0);
  }
  const detail = approvalDetail(item.input);
  return APPROVAL_PX + (detail && detail !== item.title ? outputPx(lineCount(detail)) : 0) + (open ? APPROVAL_ACTIONS_PX : 0);
}

/** A sub-agent's head, its folded prompt and its padding, around its own items and its report; its head alone, closed. */
const SUB_RUN_PX = 50;
const SUB_RUN_CLOSED_PX = 30;
/** The gap between a sub-agent's items. */
const SUB_RUN_GAP_PX = 8;

/** A sub-agent (sub-run.tsx), open as it starts (its head alone once the reader closed it): its items as a run's are, then its report. */
function subRunPx(item: ToolItem, children: readonly RunItem[], sections: SectionOpen): number {
  if (!sections(item.key, "sub-run", true)) return SUB_RUN_CLOSED_PX;
  let px = SUB_RUN_PX + (item.result !== undefined ? answerPx(item.result) : 0);
  for (const child of children) px += estimateItem(child, SUB_RUN_GAP_PX, sections);
  return px;
}

/**
 * Each item's guess and the gap it was made with, by the item. A finished turn's rows are guessed once for the turn's
 * height (`estimateRun`) and again for its list's offsets: opening a 100k-event run from history guessed its ~6,000
 * rows twice, each asking the reader's kept choices for its sections. An item object does not change (a row that
 * changes is a new object), so its guess holds while the object lives, as the run list's `stableEstimates` takes it to.
 */
const itemGuesses = new WeakMap<RunItem, { gap: number; px: number }>();

/** One item of a run, its gap (`gap` px) included; its sections as the reader left them (`sections`). */
export function estimateItem(item: RunItem, gap: number, sections: SectionOpen = defaultSections): number {
  const kept = itemGuesses.get(item);
  if (kept?.gap === gap) return kept.px;
  const px = guessItem(item, gap, sections);
  itemGuesses.set(item, { gap, px });
  return px;
}

function guessItem(item: RunItem, gap: number, sections: SectionOpen): number {
  switch (item.kind) {
    case "text":
      return answerPx(item.text) + gap;
    case "thinking":
      // Closed once it is over: its summary line alone.
      return (sections(item.key, "thinking", item.open) ? THINKING_PX + THINKING_PAD_PX + wrappedLines(item.text, THINKING_CHARS_PER_LINE) * THINKING_LINE_PX : THINKING_PX) + gap;
    case "notice":
      return 36 + gap;
    case "approval":
      return approvalPx(item) + gap;
    case "tool":
      return (item.children ? subRunPx(item, item.children, sections) : toolPx(item, sections)) + gap;
  }
}

/**
 * A turn's own lines around its items, as styles.css lays them out (measured in Chromium): its status line (14 px) and
 * the gaps around the item list (2 × 8), the usage line (14 + 8) once it is known and the end banner (33 + 8) once it
 * ended.
 */
const STATUS_PX = 30;
const USAGE_PX = 22;
const END_PX = 41;

/** A finished turn whose events are not in yet, from its answer's text alone: status, the text, usage and end. */
export function estimateAnswer(text: string, gap: number): number {
  return STATUS_PX + USAGE_PX + END_PX + gap + (text ? answerPx(text) + 8 : 0);
}

/**
 * Each turn's guess, by its state: the timeline's list guesses every row it has not measured at each of its renders
 * (a turn's guess reads state beside the row), and a turn's items are many (a short edit is diffed to be guessed).
 */
const runGuesses = new WeakMap<RunState, number>();

/** A whole turn: its status line, items and footer (`gap` px after it); its sections as the reader left them. */
export function estimateRun(state: RunState, gap: number, sections: SectionOpen = defaultSections): number {
  let height = runGuesses.get(state);
  if (height === undefined) {
    height = STATUS_PX + (state.usage ? USAGE_PX : 0) + (state.end ? END_PX : 0);
    for (const item of state.items) height += estimateItem(item, 8, sections);
    if (state.end) height += changesPx(state.items, sections);
    runGuesses.set(state, height);
  }
  return height + gap;
}

/** The changed-files panel's head (its summary and the revert line) and gap; a file's line; an open file's diff. */
const CHANGES_PX = 78;
const CHANGE_PX = 22;
const CHANGE_DIFF_PAD_PX = 41;
const CHANGE_DIFF_LINE_PX = 17.4;
const CHANGE_DIFF_MAX_PX = 373;
/** Lines of context a recorded diff shows around a change. */
const CHANGE_CONTEXT_LINES = 6;

/**
 * A finished turn's changed files (changed-files.tsx), from the files its calls wrote: the panel is shown once the
 * run's recorded changes load, which is after its row is first shown, and a turn guessed without it came out a
 * panel short (a file's open diff: ~470 px) for every turn above the place a reload goes back to.
 */
function changesPx(items: readonly RunItem[], sections: SectionOpen): number {
  const written = new Map<string, unknown>();
  for (const item of items) {
    if (item.kind === "tool" && item.path && item.state === "done" && (item.toolKind === "file_write" || item.toolKind === "file_edit")) written.set(item.path, item.input);
  }
  if (!written.size) return 0;
  let px = CHANGES_PX;
  for (const [path, input] of written) {
    px += CHANGE_PX;
    if (sections("change", path, written.size <= CHANGES_OPEN_AT_MOST)) {
      px += Math.min(CHANGE_DIFF_MAX_PX, CHANGE_DIFF_PAD_PX + ((editDiff(input)?.length ?? 0) + CHANGE_CONTEXT_LINES) * CHANGE_DIFF_LINE_PX);
    }
  }
  return px;
}

/** The person's message: one line is 35 px in Chromium, each more 22. */
export function estimateUserMessage(text: string, gap: number): number {
  return 13 + textLines(text) * LINE_PX + gap;
}

/** Characters of text in inline Markdown. */
function inlineChars(nodes: readonly MdInline[]): number {
  let chars = 0;
  for (const node of nodes) chars += node.t === "text" || node.t === "code" ? node.v.length : node.t === "br" ? 0 : inlineChars(node.c);
  return chars;
}

/** One block of a long answer (its margins included), when its blocks are windowed (components/markdown.tsx). */
export function estimateBlock(block: MdBlock): number {
  switch (block.t) {
    case "heading":
      return 44;
    case "para":
    case "text":
      return Math.max(1, Math.ceil(inlineChars(block.c) / CHARS_PER_LINE)) * LINE_PX + 14;
    case "list":
      return 14 + block.items.reduce((sum, item) => sum + item.c.reduce((h, child) => h + estimateBlock(child) - 14, 0), 0);
    case "code":
      return textLines(block.v) * 18 + 30;
    case "quote":
      return block.c.reduce((sum, child) => sum + estimateBlock(child), 0);
    case "table":
      return (block.rows.length + 1) * 30 + 20;
    case "hr":
      return 24;
  }
}
