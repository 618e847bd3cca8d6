/** A small unified-style diff: removed lines red with "−", added green with "+", context plain; collapsible. */
import { diffStat, type DiffLine } from "../lib/edit-diff.ts";
import { Disclosure } from "./disclosure.tsx";

const PREFIX: Record<DiffLine["kind"], string> = { add: "+", del: "-", ctx: " ", hunk: "" };

/** A diff of up to this many lines opens by itself. */
export const SHORT_DIFF_LINES = 40;

/** `id`: the section's id in its run (web/components/disclosure.tsx). */
export function DiffView({ id, lines }: { id: string; lines: DiffLine[] }) {
  const { added, removed } = diffStat(lines);
  return (
    <Disclosure
      id={id}
      class="tool-diff"
      data-testid="tool-diff"
      open={lines.length <= SHORT_DIFF_LINES}
      summary={
        <>
          Diff <span class="diff-added">+{added}</span> <span class="diff-removed">−{removed}</span>
        </>
      }
    >
      {() => (
        <pre class="diff">
          {lines.map((line, i) => (
            <span key={i} class={`diff-line diff-${line.kind}`} data-kind={line.kind}>
              {PREFIX[line.kind]}
              {line.text}
              {"\n"}
            </span>
          ))}
        </pre>
      )}
    </Disclosure>
  );
}
