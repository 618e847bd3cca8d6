/**
 * A run's items in order; a sub-agent's items render the same way, nested inside its SubRun. Each item is a memoized
 * component on the item itself: the fold copies only the items an event touched, so a frame re-renders those alone.
 */
import { memo } from "preact/compat";
import type { RunItem } from "../state/run-state.ts";
import { ApprovalCard } from "./approval-card.tsx";
import { QuestionCard } from "./question-card.tsx";
import { Disclosure } from "./disclosure.tsx";
import { Markdown } from "./markdown.tsx";
import { TicketLink } from "./ticket-link.tsx";
import { SubRun } from "./sub-run.tsx";
import { ToolCard } from "./tool-card.tsx";

export type OpenFile = (path: string) => void;

/**
 * One item; re-renders only when the item (or the file opener) is a different object. This is also what memoizes a
 * tool card on its item: a call the fold did not touch keeps its object, so its card is skipped.
 */
export const RunItemView = memo(function RunItemView({ item, onOpenFile }: { item: RunItem; onOpenFile?: OpenFile }) {
  switch (item.kind) {
    case "text":
      return <Markdown text={item.text} class="assistant-text" data-testid="assistant-text" />;
    case "thinking":
      return (
        <Disclosure id={`${item.key}\nthinking`} class="thinking" data-testid="thinking" open={item.open} bodyWhileClosed summary={`${item.open ? "Thinking…" : "Thought"}${item.tokens ? ` (${item.tokens} tokens)` : ""}`}>
          {() => <div class="thinking-text">{item.text}</div>}
        </Disclosure>
      );
    case "tool":
      return item.children ? (
        <SubRun tool={item} onOpenFile={onOpenFile}>
          <RunItems items={item.children} onOpenFile={onOpenFile} />
        </SubRun>
      ) : (
        <ToolCard tool={item} onOpenFile={onOpenFile} />
      );
    case "approval":
      return item.approvalKind === "question" ? <QuestionCard item={item} /> : <ApprovalCard item={item} />;
    case "notice":
      return (
        <div class={`notice level-${item.level}`} data-testid="notice" data-code={item.code}>
          {item.code && <code>{item.code}</code>} {item.message}
          {item.link && (
            <>
              {" "}
              <TicketLink href={item.link.href} testId="notice-link">
                {item.link.label}
              </TicketLink>
            </>
          )}
        </div>
      );
  }
});

/** Every item, in the DOM (a sub-agent's children; the run's own long list is windowed by RunView). */
export function RunItems({ items, onOpenFile }: { items: readonly RunItem[]; onOpenFile?: OpenFile }) {
  return (
    <>
      {items.map((item) => (
        <RunItemView key={item.key} item={item} onOpenFile={onOpenFile} />
      ))}
    </>
  );
}
