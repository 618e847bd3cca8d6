/** A run's items in order; a sub-agent's items render the same way, nested inside its SubRun. */
import type { RunItem } from "../state/run-state.ts";
import { Markdown } from "./markdown.tsx";
import { TicketLink } from "./ticket-link.tsx";
import { SubRun } from "./sub-run.tsx";
import { ToolCard } from "./tool-card.tsx";

export function RunItems({ items, onOpenFile }: { items: readonly RunItem[]; onOpenFile?: (path: string) => void }) {
  return (
    <>
      {items.map((item) => {
        switch (item.kind) {
          case "text":
            return <Markdown key={item.key} text={item.text} class="assistant-text" data-testid="assistant-text" />;
          case "thinking":
            return (
              <details key={item.key} class="thinking" data-testid="thinking" open={item.open}>
                <summary>{item.open ? "Thinking…" : "Thought"}{item.tokens ? ` (${item.tokens} tokens)` : ""}</summary>
                <div class="thinking-text">{item.text}</div>
              </details>
            );
          case "tool":
            return item.children ? (
              <SubRun key={item.key} tool={item} onOpenFile={onOpenFile}>
                <RunItems items={item.children} onOpenFile={onOpenFile} />
              </SubRun>
            ) : (
              <ToolCard key={item.key} tool={item} onOpenFile={onOpenFile} />
            );
          case "notice":
            return (
              <div key={item.key} class={`notice level-${item.level}`} data-testid="notice" data-code={item.code}>
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
      })}
    </>
  );
}
