/**
 * One tool call, rendered by its normalised kind: shell commands show their command line, exit code and
 * collapsible output; file edits their path and the diff their input asks for; todos a list; failed and refused
 * calls carry a visible mark. A call that started a sub-agent is rendered by SubRun around this card's head.
 */
import { editDiff } from "../lib/edit-diff.ts";
import type { FileChange } from "../../server/contracts/changes.ts";
import type { ToolItem } from "../state/run-state.ts";
import { DiffView, SHORT_DIFF_LINES } from "./diff-view.tsx";
import { Disclosure } from "./disclosure.tsx";
import { ChangeDiff } from "./changed-files.tsx";
import { WriteChangesContext } from "./write-changes-context.ts";
import type { JSX } from "preact";
import { BanIcon, BoltIcon, BoxCheckIcon, BoxIcon, CheckIcon, CrossIcon, DotsIcon, HalfIcon, StopIcon } from "./icons.tsx";

const KIND_LABEL: Record<ToolItem["toolKind"], string> = {
  file_write: "Wrote",
  file_edit: "Edited",
  file_read: "Read",
  command: "Ran",
  search: "Searched",
  web: "Fetched",
  todo: "Plan",
  task: "Sub-agent",
  mcp: "MCP",
  other: "Tool",
};

/** Output up to this many lines opens by itself; longer output stays folded until asked for. */
export const SHORT_OUTPUT_LINES = 12;

function field(input: unknown, ...names: string[]): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  for (const name of names) {
    const value = (input as Record<string, unknown>)[name];
    if (typeof value === "string" && value) return value;
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(" ");
  }
  return undefined;
}

interface Todo {
  content: string;
  status: string;
}

function todos(input: unknown): Todo[] {
  const list = typeof input === "object" && input !== null ? (input as { todos?: unknown }).todos : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((t) =>
    typeof t === "object" && t !== null && typeof (t as Todo).content === "string"
      ? [{ content: (t as Todo).content, status: String((t as Todo).status ?? "pending") }]
      : [],
  );
}

function summary(tool: ToolItem): string {
  switch (tool.toolKind) {
    case "file_write":
    case "file_edit":
    case "file_read":
      return tool.path ?? field(tool.input, "file_path", "path", "filePath") ?? "";
    case "command":
      return field(tool.input, "command", "cmd") ?? "";
    case "search":
      return field(tool.input, "pattern", "query", "glob") ?? "";
    case "web":
      return field(tool.input, "url", "query") ?? "";
    case "task":
      return field(tool.input, "description", "prompt") ?? "";
    case "mcp":
    case "todo":
    case "other":
      return "";
  }
}

/** A call's input as its folded "Input" section shows it. */
export function inputText(tool: ToolItem): string {
  if (tool.input === undefined) return tool.inputDraft;
  try {
    return JSON.stringify(tool.input, null, 2) ?? "";
  } catch {
    return String(tool.input);
  }
}

function lineCount(text: string): number {
  return text === "" ? 0 : text.replace(/\n$/, "").split("\n").length;
}

/** The mark in a card's first line for each state: a call cut off by its run's end is neither done nor failed. */
const STATE_MARK: Record<ToolItem["state"], (props: { size?: number }) => JSX.Element> = { running: DotsIcon, done: CheckIcon, error: CrossIcon, canceled: StopIcon, interrupted: BoltIcon };

/** What went wrong, in one word: refused beats a call its run's end cut off, beats a non-zero exit code, beats a plain failure. */
function FailureMark({ tool }: { tool: ToolItem }) {
  if (tool.state === "canceled" || tool.state === "interrupted") {
    return <span class={`tool-stopped ${tool.state}`} data-testid="tool-stopped" data-stopped={tool.state}>{tool.state}</span>;
  }
  if (tool.refused) return <span class="tool-failure refused" data-testid="tool-failure" data-failure="refused">refused</span>;
  if (tool.state !== "error") return null;
  if (tool.exitCode !== undefined && tool.exitCode !== 0) return null;
  return <span class="tool-failure" data-testid="tool-failure" data-failure="failed">failed</span>;
}

function ExitCode({ tool }: { tool: ToolItem }) {
  if (tool.exitCode === undefined) return null;
  return (
    <span class={`tool-exit ${tool.exitCode === 0 ? "ok" : "bad"}`} data-testid="tool-exit" data-exit={tool.exitCode}>
      exit {tool.exitCode}
    </span>
  );
}

/** The card's first line: state, kind, what it acted on, and any failure mark. */
export function ToolHead({ tool, onOpenFile }: { tool: ToolItem; onOpenFile?: (path: string) => void }) {
  const detail = summary(tool);
  const isFile = (tool.toolKind === "file_write" || tool.toolKind === "file_edit") && tool.path;
  return (
    <div class="tool-head">
      <span class="tool-state" role="img" aria-label={tool.refused ? "refused" : tool.state}>
        {tool.refused ? <BanIcon size={14} /> : STATE_MARK[tool.state]({ size: 14 })}
      </span>
      <span class="tool-kind">{KIND_LABEL[tool.toolKind]}</span>
      {isFile && onOpenFile ? (
        <button type="button" class="link file-link" data-testid="tool-file-link" onClick={() => onOpenFile(tool.path!)}>
          {tool.path}
        </button>
      ) : (
        <code class="tool-detail" title={detail || tool.name}>
          {detail || tool.name}
        </code>
      )}
      <ExitCode tool={tool} />
      <FailureMark tool={tool} />
      <span class="tool-name">{tool.name}</span>
    </div>
  );
}

function CommandOutput({ tool }: { tool: ToolItem }) {
  const command = summary(tool);
  const output = tool.result ?? "";
  const lines = lineCount(output);
  return (
    <>
      {command.includes("\n") && <pre class="tool-command">{command}</pre>}
      {tool.result !== undefined && (
        <Disclosure
          id={`${tool.key}\noutput`}
          class="tool-output"
          data-testid="tool-output"
          open={tool.state === "error" || lines <= SHORT_OUTPUT_LINES}
          summary={`Output · ${lines} ${lines === 1 ? "line" : "lines"}`}
        >
          {() => <pre class={tool.state === "error" ? "tool-error" : ""}>{output}</pre>}
        </Disclosure>
      )}
    </>
  );
}

export function ToolBody({ tool }: { tool: ToolItem }) {
  const list = tool.toolKind === "todo" ? todos(tool.input) : [];
  const diff = tool.toolKind === "file_edit" || tool.toolKind === "file_write" ? editDiff(tool.input) : undefined;
  const resultInDetails = tool.toolKind !== "command" && tool.result !== undefined;
  return (
    <>
      {list.length > 0 && (
        <ul class="todo-list">
          {list.map((todo, i) => (
            <li key={i} data-status={todo.status}>
              <span class="todo-mark" role="img" aria-label={todo.status.replace("_", " ")}>{todo.status === "completed" ? <BoxCheckIcon size={14} /> : todo.status === "in_progress" ? <HalfIcon size={14} /> : <BoxIcon size={14} />}</span> {todo.content}
            </li>
          ))}
        </ul>
      )}
      {tool.toolKind === "command" && <CommandOutput tool={tool} />}
      {tool.toolKind === "file_write" && diff && diff.length > 0 ? (
        // A Consumer, not a hook: the card also renders outside a tree (tests serialise it without a DOM).
        <WriteChangesContext.Consumer>{(known) => <WrittenContent id={`${tool.key}\ndiff`} lines={diff} recorded={tool.path ? known?.changeOf(tool.path) : undefined} />}</WriteChangesContext.Consumer>
      ) : (
        diff && diff.length > 0 && <DiffView id={`${tool.key}\ndiff`} lines={diff} />
      )}
      {tool.state === "error" && resultInDetails && <pre class="tool-error" data-testid="tool-error">{tool.result}</pre>}
      <Disclosure id={`${tool.key}\nio`} class="tool-io" open={false} summary={`Input${resultInDetails && tool.state !== "error" ? " and result" : ""}`}>
        {() => (
          <>
            <pre>{inputText(tool)}</pre>
            {resultInDetails && tool.state !== "error" && <pre>{tool.result}</pre>}
          </>
        )}
      </Disclosure>
    </>
  );
}

/**
 * What a Write put in its file. Its input is the whole new content, which says nothing of what it replaced: as a diff
 * it would read "+4 −0" for a one-line change. Once the run has ended, the run's recorded change of the file is the
 * diff against the file before the run (when this call is the only one of the run that wrote it); until then, or
 * when that is not known, the content is shown as content.
 */
export function WrittenContent({ id, lines, recorded }: { id: string; lines: Parameters<typeof DiffView>[0]["lines"]; recorded: FileChange | undefined }) {
  if (recorded?.kind === "modified") {
    return (
      <Disclosure
        id={id}
        class="tool-diff"
        data-testid="tool-diff"
        data-against="before-run"
        open={recorded.additions + recorded.deletions <= SHORT_DIFF_LINES}
        summary={
          <>
            Diff against the file before the run <span class="diff-added">+{recorded.additions}</span> <span class="diff-removed">−{recorded.deletions}</span>
          </>
        }
      >
        {() => <ChangeDiff change={recorded} />}
      </Disclosure>
    );
  }
  if (recorded?.kind === "created") return <DiffView id={id} lines={lines} />;
  const count = lines.filter((line) => line.kind !== "hunk").length;
  return (
    <Disclosure id={id} class="tool-diff" data-testid="tool-content" open={lines.length <= SHORT_DIFF_LINES} summary={`Content · ${count} ${count === 1 ? "line" : "lines"}`}>
      {() => (
        <pre class="diff">
          {lines.map((line, i) => (
            <span key={i} class={`diff-line ${line.kind === "hunk" ? "diff-hunk" : "diff-ctx"}`}>
              {line.text}
              {"\n"}
            </span>
          ))}
        </pre>
      )}
    </Disclosure>
  );
}

/** The card's classes: its state, and `refused` apart from an ordinary failure. */
export function cardClass(tool: ToolItem): string {
  return `tool-card state-${tool.state}${tool.refused ? " refused" : ""}`;
}

export function ToolCard({ tool, onOpenFile }: { tool: ToolItem; onOpenFile?: (path: string) => void }) {
  return (
    <div class={cardClass(tool)} data-testid="tool-card" data-kind={tool.toolKind} data-state={tool.state} data-refused={tool.refused ? "true" : undefined}>
      <ToolHead tool={tool} onOpenFile={onOpenFile} />
      <ToolBody tool={tool} />
    </div>
  );
}
