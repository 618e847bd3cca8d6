/** One file's change as a unified diff (jsdiff), with binary detection and a size bound. */
import type * as Diff from "diff";
import type { FileChange, FileChangeKind } from "../../contracts/changes.ts";
import { loadOnFirstUse } from "../../platform/load-on-first-use.ts";
import { sha256 } from "../../node-crypto.ts";

/** jsdiff, evaluated at the first change to describe: a run that changes no file never loads it (~0.7 ms a start). */
const jsdiff = loadOnFirstUse<typeof Diff>(import.meta.url, "diff", () => require("diff"));

/** A diff longer than this is cut (the counts still cover the whole change). */
export const MAX_DIFF_CHARS = 256 * 1024;

/** File content as kept for diffing: text, binary, absent (the file did not exist), or not kept (too large). */
export type Content = { kind: "text"; text: string } | { kind: "binary" } | { kind: "absent" } | { kind: "unknown" };

export function contentOf(bytes: Uint8Array | undefined): Content {
  if (!bytes) return { kind: "absent" };
  if (bytes.subarray(0, 8192).includes(0)) return { kind: "binary" };
  return { kind: "text", text: new TextDecoder().decode(bytes) };
}

export function sameContent(a: Content, b: Content): boolean {
  if (a.kind === "text" && b.kind === "text") return a.text === b.text;
  return a.kind === b.kind && a.kind === "absent";
}

/** The change from `before` to `after`, or null when there is none to show. */
export function describeChange(path: string, before: Content, after: Content): FileChange | null {
  if (before.kind !== "unknown" && after.kind !== "unknown" && sameContent(before, after)) return null;
  const kind: FileChangeKind = before.kind === "absent" ? "created" : after.kind === "absent" ? "deleted" : "modified";
  if (before.kind === "binary" || after.kind === "binary") return { path, kind, diff: null, additions: 0, deletions: 0, binary: true, omitted: "binary" };
  if (before.kind === "unknown" || after.kind === "unknown") return { path, kind, diff: null, additions: 0, deletions: 0, binary: false, omitted: "too-large" };
  const oldText = before.kind === "text" ? before.text : "";
  const newText = after.kind === "text" ? after.text : "";
  const { structuredPatch, formatPatch } = jsdiff();
  const patch = structuredPatch(kind === "created" ? "/dev/null" : `a/${path}`, kind === "deleted" ? "/dev/null" : `b/${path}`, oldText, newText, "", "", { context: 3 });
  let additions = 0;
  let deletions = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
    }
  }
  // formatPatch starts with an `Index:`/`===` header for one file; a unified diff starts at `---`.
  const text = formatPatch(patch).replace(/^(?:Index: .*\n)?(?:=+\n)?/, "");
  const cut = text.length > MAX_DIFF_CHARS;
  const afterSha256 = after.kind === "text" ? textSha256(after.text) : undefined;
  return {
    path,
    kind,
    diff: cut ? `${text.slice(0, text.lastIndexOf("\n", MAX_DIFF_CHARS) + 1)}` : text,
    additions,
    deletions,
    binary: false,
    ...(cut ? { omitted: "too-large" as const } : {}),
    ...(afterSha256 ? { afterSha256 } : {}),
  };
}

/** SHA-256 (hex) of a text's UTF-8 bytes: what a file held, told apart without keeping it. */
export function textSha256(text: string): string {
  return sha256().update(text, "utf8").digest("hex");
}

/**
 * What a file held before its change, from the change's recorded diff and what it holds now (`afterText`, the run's
 * result): the diff applied in reverse, exactly (no fuzz). Undefined when the diff is not whole (binary, cut, not
 * kept) or does not apply to `afterText`.
 */
export function textBefore(change: FileChange, afterText: string): string | undefined {
  if (change.binary || change.diff === null || change.omitted) return undefined;
  const { parsePatch, reversePatch, applyPatch } = jsdiff();
  const [patch] = parsePatch(change.diff);
  if (!patch) return undefined;
  const before = applyPatch(afterText, reversePatch(patch), { fuzzFactor: 0 });
  return before === false ? undefined : before;
}
