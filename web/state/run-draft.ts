/**
 * A mutable working copy of a RunState for folding many events between two renders. Items (and a sub-agent's list
 * of child items) are copied on first write after each snapshot, so a published snapshot never changes and
 * unchanged items keep their identity (cheap re-renders when one delta touches one item).
 */
import type { RunItem, RunState, ToolItem } from "./run-state.ts";

const OUTPUT_LIMIT = 64 * 1024;

/**
 * Where a list's newest item of each kind and newest call of each tool id sit, so the fold finds a call or the last
 * thinking block without scanning the list per event (a scan per event made folding a 100k-event run quadratic).
 * Built by one scan the first time a list is searched, kept by `ItemList.add`; a list replaced by a new array
 * (`removeWhere`, a sub-agent's children copied after a snapshot) gets a new one.
 */
class ListIndex {
  private readonly kindAt = new Map<RunItem["kind"], number>();
  private readonly toolAt = new Map<string, number>();

  constructor(items: readonly RunItem[]) {
    items.forEach((item, index) => this.note(item, index));
  }

  note(item: RunItem, index: number): void {
    this.kindAt.set(item.kind, index);
    if (item.kind === "tool") this.toolAt.set(item.id, index);
  }

  newestOf(kind: RunItem["kind"]): number {
    return this.kindAt.get(kind) ?? -1;
  }

  toolCall(id: string): number {
    return this.toolAt.get(id) ?? -1;
  }
}

/** One writable list of items: the run's own, or the children of a sub-agent's tool call. */
export class ItemList {
  constructor(
    readonly items: RunItem[],
    private readonly fresh: WeakSet<object>,
    private readonly indexOf: (items: RunItem[]) => ListIndex,
  ) {}

  last(): RunItem | undefined {
    return this.items[this.items.length - 1];
  }

  add<T extends RunItem>(item: T): T {
    this.items.push(item);
    this.fresh.add(item);
    this.indexOf(this.items).note(item, this.items.length - 1);
    return item;
  }

  /** The item at `index`, made writable (copied once per snapshot). */
  edit<T extends RunItem>(index: number): T {
    const item = this.items[index] as T;
    if (this.fresh.has(item)) return item;
    const copy = { ...item };
    this.items[index] = copy;
    this.fresh.add(copy);
    return copy;
  }

  /** Index of the newest item matching `test`, or -1. */
  findLast(test: (item: RunItem) => boolean): number {
    for (let i = this.items.length - 1; i >= 0; i--) if (test(this.items[i]!)) return i;
    return -1;
  }

  /** Index of the newest item of `kind`, or -1. */
  newestOf(kind: RunItem["kind"]): number {
    return this.indexOf(this.items).newestOf(kind);
  }

  /** Index of the newest call of tool `id`, or -1. */
  toolCall(id: string): number {
    return this.indexOf(this.items).toolCall(id);
  }
}

export class RunDraft {
  private fresh = new WeakSet<object>();
  private readonly indexes = new WeakMap<RunItem[], ListIndex>();
  private nextKey = 0;
  readonly state: RunState;

  constructor(initial: RunState) {
    this.state = { ...initial, items: initial.items.slice(), files: initial.files.slice() };
    this.nextKey = countItems(initial.items);
  }

  /** A key unique within this run, for list rendering. */
  key(): string {
    return `i${this.nextKey++}`;
  }

  /** The run's own (top-level) items. */
  get root(): ItemList {
    return this.listOf(this.state.items);
  }

  /**
   * The list a sub-agent's items go into: the children of the tool call `parentToolUseId`, wherever it sits in the
   * tree. An unknown parent (or none) is the top level, so a call whose parent never arrived is shown, not lost.
   */
  list(parentToolUseId?: string): ItemList {
    const path = parentToolUseId === undefined ? undefined : pathTo(this.state.items, parentToolUseId);
    if (!path) return this.root;
    let list = this.root;
    for (const index of path) {
      const tool = list.edit<ToolItem>(index);
      const children = tool.children ?? [];
      if (!this.fresh.has(children)) {
        tool.children = children.slice();
        this.fresh.add(tool.children);
      }
      list = this.listOf(tool.children!);
    }
    return list;
  }

  last(): RunItem | undefined {
    return this.root.last();
  }

  add<T extends RunItem>(item: T): T {
    return this.root.add(item);
  }

  /** The top-level item at `index`, made writable (copied once per snapshot). */
  edit<T extends RunItem>(index: number): T {
    return this.root.edit<T>(index);
  }

  /** Index of the newest top-level item matching `test`, or -1. */
  findLast(test: (item: RunItem) => boolean): number {
    return this.root.findLast(test);
  }

  /** Index of the newest top-level item of `kind`, or -1. */
  newestOf(kind: RunItem["kind"]): number {
    return this.root.newestOf(kind);
  }

  /** Drops the top-level items matching `test` (published snapshots keep theirs: each has its own list). */
  removeWhere(test: (item: RunItem) => boolean): void {
    const kept = this.state.items.filter((item) => !test(item));
    if (kept.length !== this.state.items.length) this.state.items = kept;
  }

  touchFile(path: string): void {
    if (!this.state.files.includes(path)) this.state.files = [...this.state.files, path];
  }

  appendOutput(chunk: string): void {
    const output = this.state.output + chunk;
    this.state.output = output.length > OUTPUT_LIMIT ? output.slice(output.length - OUTPUT_LIMIT) : output;
  }

  private listOf(items: RunItem[]): ItemList {
    return new ItemList(items, this.fresh, this.indexOf);
  }

  private readonly indexOf = (items: RunItem[]): ListIndex => {
    let index = this.indexes.get(items);
    if (!index) this.indexes.set(items, (index = new ListIndex(items)));
    return index;
  };

  /** An immutable view of the current state; later edits copy again. */
  snapshot(): RunState {
    this.fresh = new WeakSet();
    return { ...this.state, items: this.state.items.slice() };
  }
}

/** Indexes from the top level down to the tool call `id` (newest first at each level), or undefined. */
function pathTo(items: readonly RunItem[], id: string): number[] | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind !== "tool") continue;
    if (item.id === id) return [i];
    const below = item.children ? pathTo(item.children, id) : undefined;
    if (below) return [i, ...below];
  }
  return undefined;
}

function countItems(items: readonly RunItem[]): number {
  return items.reduce((n, item) => n + 1 + (item.kind === "tool" && item.children ? countItems(item.children) : 0), 0);
}
