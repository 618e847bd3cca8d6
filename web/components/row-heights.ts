/**
 * First guesses at how tall a row is before it was ever shown (the virtual lists measure it once it is): close
 * enough that the scrollbar does not jump much while scrolling through rows never seen. Pure, so it is testable.
 */
import type { MdBlock, MdInline } from "../lib/markdown.ts";
import type { RunItem, RunState } from "../state/run-state.ts";

const LINE_PX = 22;
const CHARS_PER_LINE = 90;
/** Output folded away above this many lines (tool-card.tsx's SHORT_OUTPUT_LINES) shows only its summary. */
const SHORT_OUTPUT_LINES = 12;

function textLines(text: string): number {
  let lines = 0;
  for (const line of text.split("\n")) lines += Math.max(1, Math.ceil(line.length / CHARS_PER_LINE));
  return lines;
}

/** One item of a run, its gap (`gap` px) included. */
export function estimateItem(item: RunItem, gap: number): number {
  switch (item.kind) {
    case "text":
      return textLines(item.text) * LINE_PX + gap;
    case "thinking":
      return 36 + gap;
    case "notice":
      return 36 + gap;
    case "approval":
      return (item.decision || item.closed ? 64 : 140) + gap;
    case "tool": {
      if (item.children) return 120 + item.children.length * 40 + gap;
      const output = item.result ?? "";
      const lines = output === "" ? 0 : output.replace(/\n$/, "").split("\n").length;
      const open = item.toolKind === "command" && (item.state === "error" || lines <= SHORT_OUTPUT_LINES);
      return 64 + (item.toolKind === "command" && item.result !== undefined ? 28 : 0) + (open ? lines * 18 : 0) + gap;
    }
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
  return STATUS_PX + USAGE_PX + END_PX + gap + (text ? textLines(text) * LINE_PX + 8 : 0);
}

/** A whole turn: its status line, items and footer. */
export function estimateRun(state: RunState, gap: number): number {
  let height = STATUS_PX + (state.usage ? USAGE_PX : 0) + (state.end ? END_PX : 0) + gap;
  for (const item of state.items) height += estimateItem(item, 8);
  return height;
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
