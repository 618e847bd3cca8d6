/**
 * A single-consumer async queue: the transports push AgentEvents as frames arrive and the run service iterates them.
 * Pushing never blocks; closing ends the iteration after the buffered events are read.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private waiter: ((result: IteratorResult<T>) => void) | null = null;
  private closed = false;

  push(...values: T[]): void {
    if (this.closed) return;
    for (const value of values) {
      if (this.waiter) {
        const wake = this.waiter;
        this.waiter = null;
        wake({ value, done: false });
      } else this.buffer.push(value);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake({ value: undefined, done: true });
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const value = this.buffer.shift();
        if (value !== undefined) return Promise.resolve({ value, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiter = resolve;
        });
      },
      return: () => {
        this.closed = true;
        this.buffer.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
