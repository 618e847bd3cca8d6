/**
 * The change a file tool call asks for, as unified-style lines, read from the call's own input: Claude `Edit`
 * (old_string → new_string), `MultiEdit` (edits[]), `Write` (content, all added), or a unified diff the input
 * already carries (`diff`/`patch`). Nothing is read from disk: this is what the agent asked, not what the file is.
 */
import { diffLines } from "diff";

export type DiffLineKind = "add" | "del" | "ctx" | "hunk";
export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

/** Beyond this many lines a diff is cut, with a last line saying how many more there were. */
const MAX_LINES = 400;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(input: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) if (typeof input[name] === "string") return input[name] as string;
  return undefined;
}

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** One old → new replacement as lines: unchanged lines as context, the rest removed then added. */
function replacement(before: string, after: string): DiffLine[] {
  return diffLines(before, after).flatMap((change) =>
    splitLines(change.value).map((line): DiffLine => ({ kind: change.added ? "add" : change.removed ? "del" : "ctx", text: line })),
  );
}

function unified(diff: string): DiffLine[] {
  return splitLines(diff).flatMap((line): DiffLine[] => {
    if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff ") || line.startsWith("index ")) return [];
    if (line.startsWith("@@")) return [{ kind: "hunk", text: line }];
    if (line.startsWith("+")) return [{ kind: "add", text: line.slice(1) }];
    if (line.startsWith("-")) return [{ kind: "del", text: line.slice(1) }];
    return [{ kind: "ctx", text: line.startsWith(" ") ? line.slice(1) : line }];
  });
}

function bounded(lines: DiffLine[]): DiffLine[] {
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES), { kind: "hunk", text: `… ${lines.length - MAX_LINES} more lines` }];
}

/** The diff lines of a file_edit/file_write call, or undefined when its input carries no change to show. */
export function editDiff(input: unknown): DiffLine[] | undefined {
  const args = record(input);
  if (!args) return undefined;
  const before = text(args, "old_string", "oldString", "old_str", "oldText");
  const after = text(args, "new_string", "newString", "new_str", "newText");
  if (before !== undefined && after !== undefined) return bounded(replacement(before, after));
  if (Array.isArray(args.edits)) {
    const parts = args.edits.flatMap((edit, index) => {
      const e = record(edit);
      const from = e && text(e, "old_string", "oldString", "oldText");
      const to = e && text(e, "new_string", "newString", "newText");
      if (from === undefined || to === undefined) return [];
      return [{ kind: "hunk" as const, text: `@@ edit ${index + 1} @@` }, ...replacement(from, to)];
    });
    return parts.length ? bounded(parts) : undefined;
  }
  const patch = text(args, "diff", "patch", "unified_diff");
  if (patch !== undefined && /^(@@|[-+]{3} )/m.test(patch)) return bounded(unified(patch));
  const content = text(args, "content", "file_text", "contents");
  if (content !== undefined) return bounded(splitLines(content).map((line) => ({ kind: "add" as const, text: line })));
  return undefined;
}

/** `+N −M` for a diff's header. */
export function diffStat(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === "add") added++;
    else if (line.kind === "del") removed++;
  }
  return { added, removed };
}
