import { describe, expect, test } from "bun:test";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { createRunEventStream, parseRunEventData } from "../../web/api/run-events.ts";
import type { EventSourceLike } from "../../web/api/sse.ts";
import { runEvents } from "../support/web-run-events.ts";

class FakeEventSource implements EventSourceLike {
  listeners = new Map<string, Array<(event: Event) => void>>();
  closed = false;
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: Event) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
  }
  frame(event: RunEvent): void {
    for (const listener of this.listeners.get(event.type) ?? []) listener(new MessageEvent(event.type, { data: JSON.stringify(event) }));
  }
  connectionError(): void {
    for (const listener of this.listeners.get("error") ?? []) listener(new Event("error"));
  }
}

describe("run event stream", () => {
  test("delivers every named RunEvent, reports a dropped connection, and closes itself after end", () => {
    let source!: FakeEventSource;
    const stream = createRunEventStream((url) => (source = new FakeEventSource(url)));
    const received: RunEvent[] = [];
    const trouble: string[] = [];
    stream("run/1", (event) => received.push(event), (message) => trouble.push(message));
    expect(source.url).toBe("/api/runs/run%2F1/events");
    const e = runEvents();
    source.frame(e.start());
    source.connectionError(); // EventSource's own error: no data, it reconnects with Last-Event-ID
    source.frame(e.error("X", "boom"));
    source.frame(e.end({ status: "failed" }));
    expect(received.map((event) => event.type)).toEqual(["start", "error", "end"]);
    expect(trouble).toHaveLength(1);
    expect(source.closed).toBe(true);
  });

  test("frame data that is not a RunEvent is ignored", () => {
    expect(parseRunEventData("{nope")).toBeNull();
    expect(parseRunEventData(JSON.stringify({ id: 1, type: "mystery" }))).toBeNull();
    expect(parseRunEventData(JSON.stringify({ type: "end" }))).toBeNull();
    expect(parseRunEventData(undefined)).toBeNull();
  });
});
