/**
 * A sub-agent as a child run (Claude `Task`): the call that started it as the head, then, folded under it, the
 * prompt it was given, its own items (tool calls with their states) and the report it returned.
 */
import type { ComponentChildren } from "preact";
import type { RunItem, ToolItem } from "../state/run-state.ts";
import { Disclosure } from "./disclosure.tsx";
import { Markdown } from "./markdown.tsx";
import { cardClass, ToolHead } from "./tool-card.tsx";

const STATE_LABEL: Record<ToolItem["state"], string> = { running: "running", done: "done", error: "failed", canceled: "canceled", interrupted: "interrupted" };

function countCalls(items: readonly RunItem[]): number {
  return items.reduce((n, item) => n + (item.kind === "tool" ? 1 + countCalls(item.children ?? []) : 0), 0);
}

function prompt(input: unknown): string | undefined {
  const value = typeof input === "object" && input !== null ? (input as { prompt?: unknown }).prompt : undefined;
  return typeof value === "string" && value ? value : undefined;
}

export function SubRun({ tool, onOpenFile, children }: { tool: ToolItem; onOpenFile?: (path: string) => void; children: ComponentChildren }) {
  const calls = countCalls(tool.children ?? []);
  const task = prompt(tool.input);
  return (
    <div class={`${cardClass(tool)} sub-run`} data-testid="sub-run" data-tool-id={tool.id} data-state={tool.state}>
      <Disclosure
        id={`${tool.key}\nsub-run`}
        class="sub-run-details"
        open
        summaryClass="sub-run-summary"
        summary={
          <>
            <ToolHead tool={tool} onOpenFile={onOpenFile} />
            <span class="sub-run-meta" data-testid="sub-run-meta">
              {calls} {calls === 1 ? "call" : "calls"} · {STATE_LABEL[tool.state]}
            </span>
          </>
        }
      >
        {() => (
          <>
            {task && (
              <Disclosure id={`${tool.key}\nprompt`} class="sub-run-prompt" open={false} summary="Prompt">
                {() => <pre>{task}</pre>}
              </Disclosure>
            )}
            <div class="sub-run-items" data-testid="sub-run-items">
              {calls === 0 && tool.state === "running" ? <span class="muted">starting…</span> : children}
            </div>
            {tool.result !== undefined && (
              <div class={`sub-run-result${tool.state === "error" ? " tool-error" : ""}`} data-testid="sub-run-result">
                <Markdown text={tool.result} class="sub-run-report" />
              </div>
            )}
          </>
        )}
      </Disclosure>
    </div>
  );
}
