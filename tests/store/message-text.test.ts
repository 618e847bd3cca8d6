// A finished answer's text is stored once, inside its folded events; the store joins it back in sqlite
// (server/store/message-text.ts) by the rule the fold joins it in JavaScript (EventFolder.text). These must agree.
import { describe, expect, mock, test } from "bun:test";
import { join } from "node:path";
import type { AgentEvent } from "../../server/contracts/events.ts";
import type { Message } from "../../server/contracts/projects.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { EventFolder, type FoldOptions } from "../../server/runs/fold.ts";
import { MessageTextPieces } from "../../server/runs/text-pieces.ts";
import { openDatabase } from "../../server/store/database.ts";
import { MIGRATIONS } from "../../server/store/migrations.ts";
import { Store } from "../../server/store/store.ts";
import { completeAsBeforeTextOnce } from "../support/legacy-messages.ts";
import { tempDir } from "../support/temp.ts";

const text = (delta: string): AgentEvent => ({ type: "text_delta", delta });
const folds: Record<string, { events: AgentEvent[]; options?: FoldOptions }> = {
  "no events": { events: [] },
  "tool calls only": { events: [{ type: "tool_use", id: "t", name: "Read", input: { path: "a" }, kind: "file_read" }, { type: "tool_result", toolUseId: "t", content: "x" }] },
  "text around tool calls and thinking": {
    events: [
      { type: "thinking_delta", delta: "hmm" },
      text("Let me "),
      text("look.\n"),
      { type: "tool_use", id: "t", name: "Write", input: { path: "x.html" }, kind: "file_write", path: "x.html" },
      text("Done: it's 'quoted', \"double\", \\ back, ✓ 😀, and\ttabbed.\n"),
      { type: "usage", usage: { input_tokens: 1, output_tokens: 2 } },
    ],
  },
  "a cut answer: beginning, the marker line, end": {
    events: [text("a".repeat(600)), ...Array.from({ length: 500 }, (_, i) => text(`${i % 10}`.repeat(10))), { type: "usage", usage: { input_tokens: 1, output_tokens: 2 } }],
    options: { maxKeptChars: 1000, tailChars: 100 },
  },
  "a cut that left no characters out": { events: [text("a".repeat(1000)), { type: "tool_use", id: "t", name: "Read", input: {}, kind: "file_read" }], options: { maxKeptChars: 1000, tailChars: 100 } },
};

test("the text read back from stored events is the fold's text, for every shape of fold", () => {
  using dir = tempDir("od-message-text-");
  const store = Store.open(join(dir.path, "od.db"), openBunSqlite);
  using _close = { [Symbol.dispose]: () => store.close() };
  const conversationId = store.conversations.create(store.projects.create("p", dir.path).id, "c").id;
  const expected: string[] = [];
  for (const { events, options } of Object.values(folds)) {
    const folder = new EventFolder(options);
    for (const event of events) folder.push(event);
    const id = store.messages.add({ conversationId, role: "assistant", text: "" });
    store.messages.complete(id, { events: folder.events, endedAt: 1, files: [] });
    expected.push(folder.text);
  }
  expect(expected.some((t) => t.includes("characters of this answer are not shown"))).toBe(true);
  const listed = store.messages.list(conversationId);
  expect(listed.map((m) => m.text)).toEqual(expected);
  expect(JSON.parse([...store.messages.listJson(conversationId)].join("")).messages.map((m: { text: string }) => m.text)).toEqual(expected);
  expect(store.messages.transcript(conversationId).map((m) => m.text)).toEqual(expected);
});

test("answers stored before the text was stored once read as they did, after the migration as before it", () => {
  using dir = tempDir("od-message-text-");
  const path = join(dir.path, "od.db");
  const older = Store.over(openDatabase(path, openBunSqlite, MIGRATIONS.filter((m) => m.version < 9)));
  const conversationId = older.conversations.create(older.projects.create("p", dir.path).id, "c").id;
  older.messages.add({ conversationId, role: "user", text: "q" });
  const id = older.messages.add({ conversationId, role: "assistant", text: "" });
  completeAsBeforeTextOnce(older, id, { text: "the answer", events: [{ type: "text", text: "the answer" }, { type: "usage", inputTokens: 1 }] });
  older.close();

  const store = Store.open(path, openBunSqlite);
  using _close = { [Symbol.dispose]: () => store.close() };
  const listed = store.messages.list(conversationId);
  expect(listed.map(({ role, text, events }) => ({ role, text, events }))).toEqual([
    { role: "user", text: "q", events: undefined },
    { role: "assistant", text: "the answer", events: [{ type: "text", text: "the answer" }, { type: "usage", inputTokens: 1 }] },
  ]);
  expect(JSON.parse([...store.messages.listJson(conversationId)].join(""))).toEqual({ messages: listed });
  expect(store.messages.transcript(conversationId)).toEqual([
    { role: "user", text: "q" },
    { role: "assistant", text: "the answer" },
  ]);
});

describe("an answer's text, kept once read (migration 17)", () => {
  const room = () => ({ available: () => true, exhausted: mock(() => {}) });
  const listedTexts = (store: Store, conversationId: string, keepTexts?: ReturnType<typeof room>) =>
    (JSON.parse([...store.messages.listJson(conversationId, { events: false, ...(keepTexts ? { keepTexts } : {}) })].join("")) as { messages: Message[] }).messages.map((m) => m.text);
  const kept = (store: Store) => store.db.prepare("SELECT message_id, text FROM message_texts ORDER BY message_id").all();

  function answered(fold: AgentEvent[] = [text("the "), { type: "tool_use", id: "t", name: "Read", input: {}, kind: "file_read" }, text("answer")]) {
    const dir = tempDir("od-message-text-");
    const store = Store.open(join(dir.path, "od.db"), openBunSqlite);
    const conversationId = store.conversations.create(store.projects.create("p", dir.path).id, "c").id;
    store.messages.add({ conversationId, role: "user", text: "q" });
    const id = store.messages.add({ conversationId, role: "assistant", text: "" });
    const folder = new EventFolder();
    for (const event of fold) folder.push(event);
    store.messages.complete(id, { events: folder.events, endedAt: 1, files: [] });
    return { store, conversationId, id, [Symbol.dispose]: () => (store.close(), dir[Symbol.dispose]()) };
  }

  test("the first listing that may keep it keeps the answer's text, and later listings read that text", () => {
    using t = answered();
    expect(listedTexts(t.store, t.conversationId)).toEqual(["q", "the answer"]);
    expect(kept(t.store)).toEqual([]);
    expect(listedTexts(t.store, t.conversationId, room())).toEqual(["q", "the answer"]);
    expect(kept(t.store)).toEqual([{ message_id: t.id, text: "the answer" }]);
    // Read from where it is kept, not joined again: a kept text changed behind its back is what is listed.
    t.store.db.prepare("UPDATE message_texts SET text = 'kept' WHERE message_id = ?").run(t.id);
    expect(listedTexts(t.store, t.conversationId)).toEqual(["q", "kept"]);
    expect(t.store.messages.transcript(t.conversationId).map((m) => m.text)).toEqual(["q", "kept"]);
    // A listing with the events joins the text with them, as before.
    expect(t.store.messages.list(t.conversationId).map((m) => m.text)).toEqual(["q", "the answer"]);
  });

  test("a fold written again drops the kept text, and deleting the conversation deletes it", () => {
    using t = answered();
    listedTexts(t.store, t.conversationId, room());
    t.store.messages.complete(t.id, { events: [{ type: "text", text: "another answer" }], endedAt: 2, files: [] });
    expect(kept(t.store)).toEqual([]);
    expect(listedTexts(t.store, t.conversationId, room())).toEqual(["q", "another answer"]);
    expect(kept(t.store)).toEqual([{ message_id: t.id, text: "another answer" }]);
    t.store.conversations.delete(t.conversationId);
    expect(kept(t.store)).toEqual([]);
  });

  test("nothing is kept while the disk has no room, for a fold that is not JSON, or for a user's turn", () => {
    using t = answered();
    expect(listedTexts(t.store, t.conversationId, { available: () => false, exhausted: mock(() => {}) })).toEqual(["q", "the answer"]);
    expect(kept(t.store)).toEqual([]);
    t.store.db.prepare("UPDATE messages SET events_json = '[not json' WHERE id = ?").run(t.id);
    expect(listedTexts(t.store, t.conversationId, room())).toEqual(["q", ""]);
    expect(kept(t.store)).toEqual([]);
  });

  test("a disk that fills while a text is kept: the listing still answers with the text, and says the disk is full", () => {
    using t = answered([text("x".repeat(200_000))]);
    // sqlite reports SQLITE_FULL once the database would grow past its current pages.
    const pages = Number(t.store.db.prepare("PRAGMA page_count").get()?.page_count);
    t.store.db.exec(`PRAGMA max_page_count = ${pages}`);
    const keepTexts = room();
    expect(listedTexts(t.store, t.conversationId, keepTexts)).toEqual(["q", "x".repeat(200_000)]);
    expect(keepTexts.exhausted).toHaveBeenCalledTimes(1);
    expect(kept(t.store)).toEqual([]);
  });

  test("a store from before migration 17 keeps texts after it", () => {
    using dir = tempDir("od-message-text-");
    const path = join(dir.path, "od.db");
    const older = Store.over(openDatabase(path, openBunSqlite, MIGRATIONS.filter((m) => m.version < 17)));
    const conversationId = older.conversations.create(older.projects.create("p", dir.path).id, "c").id;
    const id = older.messages.add({ conversationId, role: "assistant", text: "" });
    older.messages.complete(id, { events: [{ type: "text", text: "older answer" }], endedAt: 1, files: [] });
    older.close();
    const store = Store.open(path, openBunSqlite);
    using _close = { [Symbol.dispose]: () => store.close() };
    expect(listedTexts(store, conversationId, room())).toEqual(["older answer"]);
    expect(kept(store)).toEqual([{ message_id: id, text: "older answer" }]);
  });
});

describe("an answer's long parts, stored as they stream (migration 18)", () => {
  const long = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => text(`${prefix} ${i}: "quoted", \\ back, ✓ 😀\n`));
  const pieceFolds: Record<string, { events: AgentEvent[]; options?: FoldOptions }> = {
    "one long text": { events: long("line", 8000) },
    "long thinking, a short text, a tool call, a long text": {
      events: [
        ...Array.from({ length: 6000 }, (_, i): AgentEvent => ({ type: "thinking_delta", delta: `thought ${i} ` })),
        text("short"),
        { type: "tool_use", id: "t", name: "Read", input: { path: "a" }, kind: "file_read" },
        ...long("after", 12_000),
        { type: "usage", usage: { input_tokens: 1, output_tokens: 2 } },
      ],
    },
    "a long text cut past the fold's limit": { events: [...long("cut", 20_000), { type: "usage", usage: { input_tokens: 1, output_tokens: 2 } }], options: { maxKeptChars: 400_000, tailChars: 1000 } },
  };

  function stored() {
    const dir = tempDir("od-message-pieces-");
    const store = Store.open(join(dir.path, "od.db"), openBunSqlite);
    const conversationId = store.conversations.create(store.projects.create("p", dir.path).id, "c").id;
    return { store, conversationId, [Symbol.dispose]: () => (store.close(), dir[Symbol.dispose]()) };
  }
  const pieceCount = (store: Store) => Number(store.db.prepare("SELECT count(*) AS n FROM message_text_pieces").get()?.n);

  test("an answer whose long parts went to pieces reads back as the same events and text as one held whole", () => {
    using t = stored();
    const expected: Pick<Message, "text" | "events">[] = [];
    for (const { events, options } of Object.values(pieceFolds)) {
      const whole = new EventFolder(options);
      const id = t.store.messages.add({ conversationId: t.conversationId, role: "assistant", text: "" });
      const onError = mock(() => {});
      const pieced = new EventFolder({ ...options, pieces: new MessageTextPieces(t.store.messages, id, onError) });
      for (const event of events) (whole.push(event), pieced.push(event));
      expect(pieced.events.some((event) => "pieced" in event)).toBe(true);
      expect(JSON.stringify(pieced.events).length).toBeLessThan(JSON.stringify(whole.events).length / 2);
      expect(pieced.text).toBe(whole.text);
      t.store.messages.complete(id, { events: pieced.events, endedAt: 1, files: [] });
      expect(onError).not.toHaveBeenCalled();
      expected.push({ text: whole.text, events: whole.events });
    }
    expect(pieceCount(t.store)).toBeGreaterThan(12);
    const listed = t.store.messages.list(t.conversationId);
    expect(listed.map(({ text, events }): Pick<Message, "text" | "events"> => ({ text, events }))).toEqual(expected);
    expect(JSON.parse([...t.store.messages.listJson(t.conversationId)].join(""))).toEqual({ messages: listed });
    expect(t.store.messages.transcript(t.conversationId).map((m) => m.text)).toEqual(expected.map((e) => e.text));
    // Kept at the first listing that may keep it, with the pieces in it.
    const keepTexts = { available: () => true, exhausted: mock(() => {}) };
    const lean = JSON.parse([...t.store.messages.listJson(t.conversationId, { events: false, keepTexts })].join("")).messages;
    expect(lean.map((m: Message) => m.text)).toEqual(expected.map((e) => e.text));
    expect(t.store.db.prepare("SELECT text FROM message_texts ORDER BY rowid").all().map((r) => r.text)).toEqual(expected.map((e) => e.text));
  });

  test("pieces are read in their order, whatever order they were written in, and go with their conversation", () => {
    using t = stored();
    const id = t.store.messages.add({ conversationId: t.conversationId, role: "assistant", text: "" });
    const pieces = Array.from({ length: 300 }, (_, i) => `piece ${i};`);
    for (let seq = pieces.length - 1; seq >= 0; seq--) t.store.messages.addTextPiece(id, 7, seq, pieces[seq]!);
    t.store.messages.addTextPiece(id, 3, 0, "thinking piece");
    t.store.messages.complete(id, {
      endedAt: 1,
      files: [],
      events: [{ type: "thinking", text: " and on", pieced: 3 } as never, { type: "text", text: " the end", pieced: 7 } as never, { type: "text", text: "!" }],
    });
    expect(t.store.messages.textPieces(id, 7)).toBe(pieces.join(""));
    expect(t.store.messages.list(t.conversationId)).toMatchObject([
      { text: `${pieces.join("")} the end!`, events: [{ type: "thinking", text: "thinking piece and on" }, { type: "text", text: `${pieces.join("")} the end` }, { type: "text", text: "!" }] },
    ]);
    t.store.conversations.delete(t.conversationId);
    expect(pieceCount(t.store)).toBe(0);
  });

  test("a piece that cannot be stored is said once; the fold holds the rest, and the answer is stored whole", () => {
    using t = stored();
    const id = t.store.messages.add({ conversationId: t.conversationId, role: "assistant", text: "" });
    const onError = mock(() => {});
    const folder = new EventFolder({ pieces: new MessageTextPieces(t.store.messages, id, onError) });
    const events = long("full", 20_000);
    for (const event of events.slice(0, 4000)) folder.push(event);
    expect(pieceCount(t.store)).toBeGreaterThan(0);
    // sqlite reports SQLITE_FULL once the database would grow past its current pages.
    t.store.db.exec(`PRAGMA max_page_count = ${Number(t.store.db.prepare("PRAGMA page_count").get()?.page_count)}`);
    for (const event of events.slice(4000)) folder.push(event);
    expect(onError).toHaveBeenCalledTimes(1);
    t.store.db.exec("PRAGMA max_page_count = 1000000");
    t.store.messages.complete(id, { events: folder.events, endedAt: 1, files: [] });
    const whole = new EventFolder();
    for (const event of events) whole.push(event);
    expect(t.store.messages.list(t.conversationId).map(({ text, events }) => ({ text, events }))).toEqual([{ text: whole.text, events: whole.events }]);
  });

  test("a fold made again from a run's events starts its message's pieces over", () => {
    using t = stored();
    const id = t.store.messages.add({ conversationId: t.conversationId, role: "assistant", text: "" });
    const first = new EventFolder({ pieces: new MessageTextPieces(t.store.messages, id, () => {}) });
    for (const event of long("first", 8000)) first.push(event);
    const again = new EventFolder({ pieces: MessageTextPieces.afresh(t.store.messages, id) });
    for (const event of long("again", 8000)) again.push(event);
    t.store.messages.complete(id, { events: again.events, endedAt: 1, files: [] });
    expect(t.store.messages.list(t.conversationId)[0]!.text).toBe(long("again", 8000).map((e) => (e.type === "text_delta" ? e.delta : "")).join(""));
  });
});
