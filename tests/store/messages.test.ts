// GET /api/conversations/:id/messages is written from MessagesRepo.listJson: the same messages as `list`, with the
// stored folded events passed through as stored (never parsed and serialized again).
import { expect, test } from "bun:test";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";
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
  store.messages.complete(folded, { text: "done ✓", events: [{ type: "text", text: "done ✓" }, { type: "usage", inputTokens: 3 }], endedAt: 5, files: ["a.html"] });
  store.messages.add({ conversationId, role: "assistant", text: "" }); // still running: no events yet
  // Stored whole before answers were bounded: a text over the cut and events too large to parse.
  const legacy = store.messages.add({ conversationId, role: "assistant", text: "" });
  const whole = `BEGIN${"x".repeat(5_100_000)}END`;
  store.messages.complete(legacy, { text: whole, events: [{ type: "text", text: whole.repeat(4) }], endedAt: 6, files: [] });

  const listed = store.messages.list(conversationId);
  expect(listed.map((m) => m.role)).toEqual(["user", "assistant", "assistant", "assistant"]);
  expect(listed[3]!.events?.find((e) => e.type === "truncated")).toMatchObject({ totalChars: whole.length });
  expect(JSON.parse([...store.messages.listJson(conversationId)].join(""))).toEqual({ messages: listed });
});

test("the stored events text is written as it is stored, not parsed and serialized again", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  const id = store.messages.add({ conversationId, role: "assistant", text: "" });
  store.messages.complete(id, { text: "hi", events: [], endedAt: 1, files: [] });
  const stored = '[ {"type": "text",   "text": "hi"} ]';
  store.db.prepare("UPDATE messages SET events_json = ? WHERE id = ?").run(stored, id);
  expect([...store.messages.listJson(conversationId)]).toContain(stored);
  expect(store.messages.list(conversationId)[0]!.events).toEqual([{ type: "text", text: "hi" }]);
});

test("stored events that are not JSON give way to the answer's text instead of failing the whole list", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  const id = store.messages.add({ conversationId, role: "assistant", text: "" });
  store.messages.complete(id, { text: "the answer", events: [], endedAt: 1, files: [] });
  store.db.prepare("UPDATE messages SET events_json = ? WHERE id = ?").run('[{"type":"text","text":"torn', id);
  const [message] = store.messages.list(conversationId);
  expect(message!.events).toEqual([{ type: "text", text: "the answer" }]);
  expect(JSON.parse([...store.messages.listJson(conversationId)].join("")).messages[0].events).toEqual([{ type: "text", text: "the answer" }]);
});

test("transcript: each turn's role and text (cut as in list), without reading the folded events", () => {
  using t = storeWithConversation();
  const { store, conversationId } = t;
  store.messages.add({ conversationId, role: "user", text: "q" });
  const id = store.messages.add({ conversationId, role: "assistant", text: "" });
  store.messages.complete(id, { text: "a", events: [{ type: "text", text: "a" }], endedAt: 1, files: [] });
  store.db.prepare("UPDATE messages SET events_json = ? WHERE id = ?").run("not json at all", id);
  expect(store.messages.transcript(conversationId)).toEqual([
    { role: "user", text: "q" },
    { role: "assistant", text: "a" },
  ]);
});
