// GET /api/conversations/:id/messages is written from MessagesRepo.listJson: the same messages as `list`, with the
// stored folded events passed through as stored (never parsed and serialized again).
import { expect, test } from "bun:test";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";
import { completeAsBeforeTextOnce } from "../support/legacy-messages.ts";
import { tempDir } from "../support/temp.ts";

function storeWithConversation() {
  const dir = tempDir("od-messages-");
  const store = Store.open(join(dir.path, "od.db"), openBunSqlite);
  const project = store.projects.create("p", dir.path);
  const conversation = store.conversations.create(project.id, "c");
  return {
    store,
    conversationId: conversation.id,
    [Symbol.dispose]: () => {
      store.close();
      dir[Symbol.dispose]();
    },
  };
}

test("listJson is {messages: list()}: user turns, folded answers, answers in progress, and answers stored whole", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  store.messages.add({ conversationId, role: "user", text: "make a page" });
  const folded = store.messages.add({ conversationId, role: "assistant", text: "" });
  store.messages.complete(folded, { events: [{ type: "text", text: "done ✓" }, { type: "usage", inputTokens: 3 }], endedAt: 5, files: ["a.html"] });
  store.messages.add({ conversationId, role: "assistant", text: "" }); // still running: no events yet
  // Stored whole before answers were bounded: a text over the cut and events too large to parse.
  const legacy = store.messages.add({ conversationId, role: "assistant", text: "" });
  const whole = `BEGIN${"x".repeat(5_100_000)}END`;
  completeAsBeforeTextOnce(store, legacy, { text: whole, events: [{ type: "text", text: whole.repeat(4) }], endedAt: 6 });

  const listed = store.messages.list(conversationId);
  expect(listed.map((m) => m.role)).toEqual(["user", "assistant", "assistant", "assistant"]);
  expect(listed.map((m) => m.text.slice(0, 6))).toEqual(["make a", "done ✓", "", "BEGINx"]);
  expect(listed[3]!.events?.find((e) => e.type === "truncated")).toMatchObject({ totalChars: whole.length });
  expect(JSON.parse([...store.messages.listJson(conversationId)].join(""))).toEqual({ messages: listed });
});

test("a finished answer's text is stored once, in its events, and read back from them", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  const id = store.messages.add({ conversationId, role: "assistant", text: "" });
  const answer = "the whole answer, 'quoted' and\nover lines ✓";
  store.messages.complete(id, { events: [{ type: "text", text: answer }, { type: "usage", inputTokens: 3 }], endedAt: 1, files: [] });
  const row = store.db.prepare("SELECT text, events_json FROM messages WHERE id = ?").get(id)!;
  expect(row.text).toBe("");
  expect(String(row.events_json).split("whole answer").length).toBe(2);
  expect(store.messages.list(conversationId)[0]!.text).toBe(answer);
  expect(JSON.parse([...store.messages.listJson(conversationId)].join("")).messages[0].text).toBe(answer);
  expect(store.messages.transcript(conversationId)).toEqual([{ role: "assistant", text: answer }]);
});

test("the stored events text is written as it is stored, not parsed and serialized again", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  const id = store.messages.add({ conversationId, role: "assistant", text: "" });
  store.messages.complete(id, { events: [], endedAt: 1, files: [] });
  const stored = '[ {"type": "text",   "text": "hi"} ]';
  store.db.prepare("UPDATE messages SET events_json = ? WHERE id = ?").run(stored, id);
  expect([...store.messages.listJson(conversationId)]).toContain(stored);
  expect(store.messages.list(conversationId)[0]!.events).toEqual([{ type: "text", text: "hi" }]);
});

test("stored events that are not JSON give way to the answer's text instead of failing the whole list", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  const id = store.messages.add({ conversationId, role: "assistant", text: "" });
  completeAsBeforeTextOnce(store, id, { text: "the answer", events: [] });
  store.db.prepare("UPDATE messages SET events_json = ? WHERE id = ?").run('[{"type":"text","text":"torn', id);
  const [message] = store.messages.list(conversationId);
  expect(message!.events).toEqual([{ type: "text", text: "the answer" }]);
  expect(JSON.parse([...store.messages.listJson(conversationId)].join("")).messages[0].events).toEqual([{ type: "text", text: "the answer" }]);
});

test("an answer stored once whose events were damaged opens empty instead of failing the whole list", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  store.messages.add({ conversationId, role: "user", text: "q" });
  const id = store.messages.add({ conversationId, role: "assistant", text: "" });
  store.messages.complete(id, { events: [{ type: "text", text: "the answer" }], endedAt: 1, files: [] });
  store.db.prepare("UPDATE messages SET events_json = ? WHERE id = ?").run('[{"type":"text","text":"torn', id);
  const listed = store.messages.list(conversationId);
  expect(listed.map((m) => m.text)).toEqual(["q", ""]);
  expect(JSON.parse([...store.messages.listJson(conversationId)].join(""))).toEqual({ messages: listed });
  expect(store.messages.transcript(conversationId)).toEqual([
    { role: "user", text: "q" },
    { role: "assistant", text: "" },
  ]);
});

test("transcript: each turn's role and text (cut as in list), an older answer's without reading its folded events", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  store.messages.add({ conversationId, role: "user", text: "q" });
  const id = store.messages.add({ conversationId, role: "assistant", text: "" });
  completeAsBeforeTextOnce(store, id, { text: "a", events: [{ type: "text", text: "a" }] });
  store.db.prepare("UPDATE messages SET events_json = ? WHERE id = ?").run("not json at all", id);
  expect(store.messages.transcript(conversationId)).toEqual([
    { role: "user", text: "q" },
    { role: "assistant", text: "a" },
  ]);
});

test("a conversation's summary counts its turns and answers; its transcript can stop before a message", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  expect(store.messages.summary(conversationId)).toEqual({ turns: 0, answered: false });
  store.messages.add({ conversationId, role: "user", text: "first" });
  expect(store.messages.summary(conversationId)).toEqual({ turns: 1, answered: false });
  const answer = store.messages.add({ conversationId, role: "assistant", text: "" });
  store.messages.complete(answer, { events: [{ type: "text", text: "an answer" }], endedAt: 1, files: [] });
  const next = store.messages.add({ conversationId, role: "user", text: "second" });
  store.messages.add({ conversationId, role: "assistant", text: "" });
  expect(store.messages.summary(conversationId)).toEqual({ turns: 4, answered: true });
  expect(store.messages.transcript(conversationId, next)).toEqual([
    { role: "user", text: "first" },
    { role: "assistant", text: "an answer" },
  ]);
  expect(store.messages.transcript(conversationId).map((m) => m.text)).toEqual(["first", "an answer", "second", ""]);
});
