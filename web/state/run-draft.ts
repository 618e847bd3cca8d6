/**
 * A mutable working copy of a RunState for folding many events between two renders. Items are copied on first
 * write after each snapshot, so a published snapshot never changes and unchanged items keep their identity
 * (cheap re-renders when one delta touches one item).
 */
import type { RunItem, RunState } from "./run-state.ts";

const OUTPUT_LIMIT = 64 * 1024;

export class RunDraft {
  private fresh = new WeakSet<RunItem>();
  private nextKey = 0;
  readonly state: RunState;

  constructor(initial: RunState) {
    this.state = { ...initial, items: initial.items.slice(), files: initial.files.slice() };
    this.nextKey = initial.items.length;
  }

  /** A key unique within this run, for list rendering. */
  key(): string {
    return `i${this.nextKey++}`;
  }

  last(): RunItem | undefined {
    return this.state.items[this.state.items.length - 1];
  }

  add<T extends RunItem>(item: T): T {
    this.state.items.push(item);
    this.fresh.add(item);
    return item;
  }

  /** The item at `index`, made writable (copied once per snapshot). */
  edit<T extends RunItem>(index: number): T {
    const item = this.state.items[index] as T;
    if (this.fresh.has(item)) return item;
    const copy = { ...item };
    this.state.items[index] = copy;
    this.fresh.add(copy);
    return copy;
  }

  /** Index of the newest item matching `test`, or -1. */
  findLast(test: (item: RunItem) => boolean): number {
    for (let i = this.state.items.length - 1; i >= 0; i--) if (test(this.state.items[i]!)) return i;
    return -1;
  }

  touchFile(path: string): void {
    if (!this.state.files.includes(path)) this.state.files = [...this.state.files, path];
  }

  appendOutput(chunk: string): void {
    const output = this.state.output + chunk;
    this.state.output = output.length > OUTPUT_LIMIT ? output.slice(output.length - OUTPUT_LIMIT) : output;
  }

  /** An immutable view of the current state; later edits copy again. */
  snapshot(): RunState {
    this.fresh = new WeakSet();
    return { ...this.state, items: this.state.items.slice() };
  }
}
