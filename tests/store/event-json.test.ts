// A logged event's JSON is the event's own JSON with its id and timestamp after its last field: exactly the text of
// the event with both spread in, whatever the event (so readers and the database see what they always saw).
import { expect, test } from "bun:test";
import type { NewRunEvent } from "../../server/contracts/runs.ts";
import { loggedEventOf } from "../../server/store/event-json.ts";

const events: NewRunEvent[] = [
  { type: "agent", event: { type: "text_delta", delta: 'a "quoted" line\nwith ünïcode and \u2028' } },
  { type: "agent", event: { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" }, kind: "command" } },
  { type: "diagnostic", kind: "test", message: "m", detail: { nested: [1, null, "x"] } },
  { type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: ["a.txt"], durationMs: 12 },
];

test("an event's logged JSON is the JSON of the event with its id and ts spread in", () => {
  for (const [index, event] of events.entries()) {
    const logged = loggedEventOf(event, index + 7, 1_796_513_003_018);
    expect(logged.json).toBe(JSON.stringify({ ...event, id: index + 7, ts: 1_796_513_003_018 }));
    expect(logged).toMatchObject({ id: index + 7, type: event.type });
  }
});

test("fields left undefined are left out, as JSON.stringify leaves them out of the spread", () => {
  const event = { type: "diagnostic", kind: "test", message: "m", detail: undefined } as unknown as NewRunEvent;
  expect(loggedEventOf(event, 1, 2).json).toBe('{"type":"diagnostic","kind":"test","message":"m","id":1,"ts":2}');
});

test("an event that carries an id or ts of its own gets them replaced where they are, as the spread does", () => {
  const event = { type: "diagnostic", id: 99, kind: "test", message: "m", ts: 5 } as unknown as NewRunEvent;
  const logged = loggedEventOf(event, 3, 4);
  expect(logged.json).toBe(JSON.stringify({ ...event, id: 3, ts: 4 }));
  expect(JSON.parse(logged.json)).toEqual({ type: "diagnostic", id: 3, kind: "test", message: "m", ts: 4 });
});
