/**
 * Claude Code's task tools (TaskCreate / TaskUpdate / TaskList) keep a task list across calls. We fold them into
 * `TodoWrite`-shaped snapshots (`{ todos: [{ content, status, activeForm? }] }`) so the UI shows one todo widget
 * whatever tool family the CLI used. Task ids follow Claude's own numbering: "1", "2", … in creation order.
 */
import { isRecord, str } from "./wire.ts";

/** One entry of a TodoWrite snapshot. */
export type TodoItem = { content: string; status: string; activeForm?: string };

const TASK_TOOLS = new Set(["TaskCreate", "TaskUpdate", "TaskList"]);

/** True for a tool whose calls are folded into todo snapshots. */
export function isTaskTool(name: string): boolean {
  return TASK_TOOLS.has(name);
}

/** The task list of one run. */
export class TaskList {
  private readonly tasks = new Map<string, TodoItem>();
  private nextId = 1;

  /** Applies one task-tool call and returns the resulting TodoWrite input. */
  apply(name: string, input: unknown): { todos: TodoItem[] } {
    const args = isRecord(input) ? input : {};
    if (name === "TaskCreate") this.create(args);
    else if (name === "TaskUpdate") this.update(args);
    return { todos: [...this.tasks.values()].map((t) => ({ ...t })) };
  }

  private create(args: Record<string, unknown>): void {
    const content = str(args.subject) ?? str(args.content) ?? str(args.description) ?? "";
    const item: TodoItem = { content, status: str(args.status) ?? "pending" };
    const activeForm = str(args.activeForm);
    if (activeForm !== undefined) item.activeForm = activeForm;
    this.tasks.set(String(this.nextId++), item);
  }

  private update(args: Record<string, unknown>): void {
    const id = str(args.taskId) ?? (typeof args.taskId === "number" ? String(args.taskId) : undefined);
    const task = id === undefined ? undefined : this.tasks.get(id);
    if (!task || id === undefined) return;
    const status = str(args.status);
    if (status === "deleted") {
      this.tasks.delete(id);
      return;
    }
    if (status !== undefined) task.status = status;
    const subject = str(args.subject);
    if (subject !== undefined) task.content = subject;
    const activeForm = str(args.activeForm);
    if (activeForm !== undefined) task.activeForm = activeForm;
  }
}
