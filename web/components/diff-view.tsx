/** A small unified-style diff: removed lines red with "−", added green with "+", context plain; collapsible. */
import { diffStat, type DiffLine } from "../lib/edit-diff.ts";

const PREFIX: Record<DiffLine["kind"], string> = { add: "+", del: "-", ctx: " ", hunk: "" };

export function DiffView({ lines }: { lines: DiffLine[] }) {
  const { added, removed } = diffStat(lines);
  return (
    <details class="tool-diff" data-testid="tool-diff" open={lines.length <= 40}>
      <summary>
        Diff <span class="diff-added">+{added}</span> <span class="diff-removed">−{removed}</span>
      </summary>
      <pre class="diff">
        {lines.map((line, i) => (
          <span key={i} class={`diff-line diff-${line.kind}`} data-kind={line.kind}>
            {PREFIX[line.kind]}
            {line.text}
            {"\n"}
          </span>
        ))}
      </pre>
    </details>
  );
}
