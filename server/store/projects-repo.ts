/** Projects and their conversations and messages. */
import { omittedTextLine } from "../contracts/omitted-text.ts";
import type { Conversation, Message, PersistedEvent, Project } from "../contracts/projects.ts";
import type { RunStatus } from "../contracts/runs.ts";
import { newId } from "./ids.ts";
import { keepWhileRoom, type DiskSpace } from "./disk-space.ts";
import { HAS_PIECES_SQL, KEPT_TEXT_SQL, messageTextStatements, piecesTextSql } from "./message-text.ts";
import type { SqliteDatabase, SqlRow } from "./sqlite.ts";

const toProject = (r: SqlRow): Project => ({ id: String(r.id), name: String(r.name), path: String(r.path), createdAt: Number(r.created_at) });
const toConversation = (r: SqlRow): Conversation => ({
  id: String(r.id),
  projectId: String(r.project_id),
  title: String(r.title),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export class ProjectsRepo {
  constructor(private readonly db: SqliteDatabase) {}

  create(name: string, path: string): Project {
    const project = { id: newId("prj"), name, path, createdAt: Date.now() };
    this.db.prepare("INSERT INTO projects (id, name, path, created_at) VALUES (?, ?, ?, ?)").run(project.id, name, path, project.createdAt);
    return project;
  }
  list(): Project[] {
    return this.db.prepare("SELECT * FROM projects ORDER BY created_at DESC").all().map(toProject);
  }
  get(id: string): Project | undefined {
    const row = this.db.prepare("SELECT * FROM projects WHERE id = ?").get(id);
    return row ? toProject(row) : undefined;
  }
  byPath(path: string): Project | undefined {
    const row = this.db.prepare("SELECT * FROM projects WHERE path = ?").get(path);
    return row ? toProject(row) : undefined;
  }
  rename(id: string, name: string): Project | undefined {
    this.db.prepare("UPDATE projects SET name = ? WHERE id = ?").run(name, id);
    return this.get(id);
  }
  delete(id: string): boolean {
    const existed = this.get(id) !== undefined;
    this.db.prepare("DELETE FROM projects WHERE id = ?").run(id);
    return existed;
  }
}

export class ConversationsRepo {
  constructor(private readonly db: SqliteDatabase) {}

  create(projectId: string, title: string): Conversation {
    const now = Date.now();
    const conversation = { id: newId("cnv"), projectId, title, createdAt: now, updatedAt: now };
    this.db
      .prepare("INSERT INTO conversations (id, project_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")
      .run(conversation.id, projectId, title, now, now);
    return conversation;
  }
  listForProject(projectId: string): Conversation[] {
    return this.db.prepare("SELECT * FROM conversations WHERE project_id = ? ORDER BY updated_at DESC").all(projectId).map(toConversation);
  }
  get(id: string): Conversation | undefined {
    const row = this.db.prepare("SELECT * FROM conversations WHERE id = ?").get(id);
    return row ? toConversation(row) : undefined;
  }
  rename(id: string, title: string): Conversation | undefined {
    this.db.prepare("UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?").run(title, Date.now(), id);
    return this.get(id);
  }
  touch(id: string): void {
    this.db.prepare("UPDATE conversations SET updated_at = ? WHERE id = ?").run(Date.now(), id);
  }
  delete(id: string): boolean {
    const existed = this.get(id) !== undefined;
    this.db.prepare("DELETE FROM conversations WHERE id = ?").run(id);
    return existed;
  }
}

export type NewMessage = {
  conversationId: string;
  role: "user" | "assistant";
  text: string;
  runId?: string | null;
  agentId?: string | null;
  startedAt?: number | null;
};

/** How a conversation's messages are listed. */
type ListOptions = {
  /** With each message's folded events (the default). */
  events?: boolean;
  /** Where answers' texts may be kept once joined (migration 17): off while the disk holding od's data is full. */
  keepTexts?: Pick<DiskSpace, "available" | "exhausted">;
};

/**
 * The assistant message of the run whose id is the one parameter, looked for among its conversation's messages (their
 * index), not among all of them: a message's `run_id` is stored after its folded events, so a scan reads every
 * answer's pages (1,000 answers of 100 KB: 14–19 ms, against 0.1–0.5).
 */
export const ANSWER_OF_RUN_SQL = `SELECT m.id FROM runs r JOIN messages m ON m.conversation_id = r.conversation_id AND m.run_id = r.id
  WHERE r.id = ? AND m.role = 'assistant' ORDER BY m.created_at DESC LIMIT 1`;

export class MessagesRepo {
  constructor(private readonly db: SqliteDatabase) {}

  add(message: NewMessage): string {
    const id = newId("msg");
    this.db
      .prepare("INSERT INTO messages (id, conversation_id, role, text, run_id, agent_id, started_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .run(id, message.conversationId, message.role, message.text, message.runId ?? null, message.agentId ?? null, message.startedAt ?? null, Date.now());
    return id;
  }

  /** The assistant message a run answers in, if any. */
  ofRun(runId: string): string | undefined {
    const row = this.db.prepare(ANSWER_OF_RUN_SQL).get(runId);
    return row ? String(row.id) : undefined;
  }

  /** Whether a message has not ended yet (its run's end has not written it). */
  isOpen(id: string): boolean {
    return this.db.prepare("SELECT 1 FROM messages WHERE id = ? AND ended_at IS NULL").get(id) != null;
  }

  /** Store the folded outcome of an assistant turn: its text is that of its events, stored once (message-text.ts). */
  complete(id: string, outcome: { events: PersistedEvent[]; endedAt: number; files: string[] }): void {
    this.db
      .prepare("UPDATE messages SET text = '', text_in_events = 1, events_json = ?, ended_at = ?, files_json = ? WHERE id = ?")
      .run(JSON.stringify(outcome.events), outcome.endedAt, JSON.stringify(outcome.files), id);
  }

  /**
   * Stores `text` as piece `seq` of the part keyed `partKey` of an answer still streaming: the fold's long parts go
   * here as they grow instead of being held to the run's end (migration 18; the fold's events name the key).
   */
  addTextPiece(id: string, partKey: number, seq: number, text: string): void {
    this.db.prepare("INSERT INTO message_text_pieces (message_id, part_key, seq, text) VALUES (?, ?, ?, ?)").run(id, partKey, seq, text);
  }

  /** The text of a part's pieces, in order ("" when it has none). */
  textPieces(id: string, partKey: number): string {
    return String(this.db.prepare(`SELECT ${piecesTextSql("?1", "?2")} AS text`).get(id, partKey)?.text ?? "");
  }

  /** Drops an answer's pieces, before its fold is made again from its run's stored events (a lost run's recovery). */
  dropTextPieces(id: string): void {
    this.db.prepare("DELETE FROM message_text_pieces WHERE message_id = ?").run(id);
  }

  /**
   * The conversation's messages, each bounded: a text longer than `MAX_MESSAGE_TEXT_CHARS` (only rows written before
   * runs folded their output bounded) comes back as its beginning and end around a `truncated` marker, cut by sqlite,
   * so one huge turn never has to be loaded whole and its conversation always opens.
   */
  list(conversationId: string): Message[] {
    const messages: Message[] = [];
    for (const { fields, text, eventsJson, events } of this.#rows(conversationId)) {
      const { id, conversationId: conversation, role, ...rest } = fields;
      const parsed = eventsJson !== undefined ? (JSON.parse(eventsJson) as PersistedEvent[]) : events;
      messages.push({ id, conversationId: conversation, role, text, ...(parsed ? { events: parsed } : {}), ...rest });
    }
    return messages;
  }

  /**
   * `{"messages": list(conversationId)}` as JSON text, a piece at a time and a row at a time: the stored folded events
   * are written as they are stored instead of parsed and serialized again, so a conversation with a long answer (a
   * 4M-character fold: text and events) opens without a copy of it per step (+100 MB of the daemon's peak before).
   * `events: false` leaves each message's events out (not even read), and reads an answer's text from where it was
   * kept at an earlier read, joining and keeping it (while `keepTexts` has room) when it was not.
   */
  *listJson(conversationId: string, options: ListOptions = {}): Generator<string> {
    yield '{"messages":[';
    let first = true;
    for (const { fields, text, eventsJson, events } of this.#rows(conversationId, options)) {
      const { id, conversationId: conversation, role, ...rest } = fields;
      yield `${first ? "" : ","}${JSON.stringify({ id, conversationId: conversation, role }).slice(0, -1)},"text":`;
      yield JSON.stringify(text);
      if (eventsJson !== undefined) {
        yield ',"events":';
        yield eventsJson;
      } else if (events) yield `,"events":${JSON.stringify(events)}`;
      yield `,${JSON.stringify(rest).slice(1)}`;
      first = false;
    }
    yield "]}";
  }

  /**
   * The conversation's turns as a prompt's transcript needs them: role and text (cut as in `list`), no events; with
   * `before`, only the turns added before that message.
   */
  transcript(conversationId: string, before?: string): Pick<Message, "role" | "text">[] {
    return [...this.#rows(conversationId, { events: false, before })].map(({ fields, text }) => ({ role: fields.role, text }));
  }

  /** How many turns the conversation has, and whether one is an answer: what a run asks before its prompt. */
  summary(conversationId: string): { turns: number; answered: boolean } {
    const row = this.db.prepare("SELECT count(*) AS turns, coalesce(max(role = 'assistant'), 0) AS answered FROM messages WHERE conversation_id = ?").get(conversationId);
    return { turns: Number(row?.turns ?? 0), answered: Number(row?.answered ?? 0) === 1 };
  }

  /**
   * The rows of `list`, one at a time: the list of messages first, then each one's text and events by itself, each
   * read whole before it is handed out (no statement stays open across a caller's await). `eventsJson`: the stored
   * folded events, checked to be JSON by sqlite (a row whose events are not gives way to its text, as one too large
   * does); `events`: those derived from the text.
   */
  *#rows(conversationId: string, options: ListOptions & { before?: string } = {}): Generator<{ fields: Omit<Message, "text" | "events">; text: string; eventsJson?: string; events?: PersistedEvent[] }> {
    const withEvents = options.events ?? true;
    const listed = this.db
      .prepare(
        `SELECT m.id, m.conversation_id, m.role, m.run_id, m.agent_id, m.started_at, m.ended_at, m.files_json, m.created_at,
           m.text_in_events, r.status AS run_status
         FROM messages m LEFT JOIN runs r ON r.id = m.run_id WHERE m.conversation_id = ?
         ${options.before === undefined ? "" : "AND m.rowid < (SELECT rowid FROM messages WHERE id = ?)"} ORDER BY m.created_at, m.rowid`,
      )
      .all(...(options.before === undefined ? [conversationId] : [conversationId, options.before]));
    // A text of its own (a user's turn, an answer stored before migration 9): cut by sqlite when too long.
    const storedBody = this.db.prepare(
      `SELECT length(text) AS text_chars,
         CASE WHEN length(text) <= ${MAX_MESSAGE_TEXT_CHARS} THEN text ELSE substr(text, 1, ${CUT_HEAD_CHARS}) END AS text,
         CASE WHEN length(text) <= ${MAX_MESSAGE_TEXT_CHARS} THEN NULL ELSE substr(text, -${CUT_TAIL_CHARS}) END AS text_tail,
         ${withEvents ? `CASE WHEN length(events_json) <= ${MAX_EVENTS_JSON_CHARS} AND json_valid(events_json) THEN events_json ELSE NULL END` : "NULL"} AS events_json,
         length(events_json) AS events_chars
       FROM messages WHERE id = ?`,
    );
    // An answer stored once: its events, and its text joined from them (the fold that wrote them bounded both), each
    // with the pieces of its long parts put back (migration 18).
    const storedEvents = this.db.prepare(`SELECT events_json, EXISTS (${HAS_PIECES_SQL}) AS pieced FROM messages WHERE id = ?1`);
    const sql = messageTextStatements();
    const joinedText = this.db.prepare(sql.textFromEvents);
    const withPieces = this.db.prepare(sql.eventsWithPieces);
    const keptText = this.db.prepare(KEPT_TEXT_SQL);
    const keepText = this.db.prepare(sql.keepText);
    /** The text of an answer stored once, as kept at an earlier read, or kept now; undefined when it was not kept. */
    const keptTextOf = (id: string): string | undefined => {
      const kept = keptText.get(id);
      if (kept) return String(kept.text);
      // Not kept (no room, another writer holding the database): joined for this read.
      if (!options.keepTexts || !keepWhileRoom(options.keepTexts, () => keepText.run(id))) return undefined;
      const now = keptText.get(id);
      return now ? String(now.text) : undefined;
    };
    for (const r of listed) {
      const fields = {
        id: String(r.id),
        conversationId: String(r.conversation_id),
        role: r.role === "assistant" ? ("assistant" as const) : ("user" as const),
        runId: r.run_id === null ? null : String(r.run_id),
        runStatus: r.run_status === null || r.run_status === undefined ? null : (String(r.run_status) as RunStatus),
        agentId: r.agent_id === null ? null : String(r.agent_id),
        startedAt: r.started_at === null ? null : Number(r.started_at),
        endedAt: r.ended_at === null ? null : Number(r.ended_at),
        files: JSON.parse(String(r.files_json)) as string[],
        createdAt: Number(r.created_at),
      };
      if (r.text_in_events) {
        const kept = withEvents ? undefined : keptTextOf(fields.id);
        if (kept !== undefined) {
          yield { fields, text: kept };
          continue;
        }
        const stored = storedEvents.get(fields.id);
        if (!stored) continue; // deleted meanwhile
        const json = stored.events_json === null ? "" : String(stored.events_json);
        const joined = joinedText.get(json, fields.id);
        const text = String(joined?.text ?? "");
        if (!withEvents) {
          yield { fields, text };
          continue;
        }
        const events = joined?.valid ? (stored.pieced ? String(withPieces.get(json, fields.id)?.events_json) : json) : "";
        if (events && events.length <= MAX_EVENTS_JSON_CHARS) yield { fields, text, eventsJson: events };
        else yield { fields, text, ...(json ? { events: [{ type: "text" as const, text }] } : {}) };
        continue;
      }
      const b = storedBody.get(fields.id);
      if (!b) continue; // deleted meanwhile
      const cut = b.text_tail === null || b.text_tail === undefined ? undefined : cutText(String(b.text), String(b.text_tail), Number(b.text_chars));
      const text = cut?.text ?? String(b.text);
      if (!withEvents) yield { fields, text };
      // Folded events too large to parse (legacy rows), or not JSON, give way to the text.
      else if (b.events_json) yield { fields, text, eventsJson: String(b.events_json) };
      else if (b.events_chars) yield { fields, text, events: cut?.events ?? [{ type: "text" as const, text: String(b.text) }] };
      else yield { fields, text };
    }
  }
}

/**
 * Longest message text returned whole (above what a bounded fold stores: 4 M kept, a 256 K tail and the marker);
 * a longer one is cut to its first and last characters.
 */
const MAX_MESSAGE_TEXT_CHARS = 5_000_000;
const CUT_HEAD_CHARS = 4_000_000;
const CUT_TAIL_CHARS = 256_000;
/** Longest folded events JSON parsed (a bounded fold's, JSON-escaped, stays well below); a longer one gives way to the text. */
const MAX_EVENTS_JSON_CHARS = 16_000_000;

/** A too-long stored text as the UI shows a cut answer: beginning, marker, end. */
function cutText(head: string, tail: string, totalChars: number): { text: string; events: PersistedEvent[] } {
  const omittedChars = Math.max(0, totalChars - head.length - tail.length);
  const marker: PersistedEvent = { type: "truncated", omittedChars, totalChars, omittedEvents: 0, fullOutput: false };
  return {
    text: `${head}${omittedTextLine(omittedChars)}${tail}`,
    events: [{ type: "text", text: head }, marker, ...(tail ? [{ type: "text" as const, text: tail }] : [])],
  };
}

export class AgentSessionsRepo {
  constructor(private readonly db: SqliteDatabase) {}

  get(conversationId: string, agentId: string): string | undefined {
    const row = this.db.prepare("SELECT session_id FROM agent_sessions WHERE conversation_id = ? AND agent_id = ?").get(conversationId, agentId);
    return row ? String(row.session_id) : undefined;
  }
  set(conversationId: string, agentId: string, sessionId: string): void {
    this.db
      .prepare(
        "INSERT INTO agent_sessions (conversation_id, agent_id, session_id, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(conversation_id, agent_id) DO UPDATE SET session_id = excluded.session_id, updated_at = excluded.updated_at",
      )
      .run(conversationId, agentId, sessionId, Date.now());
  }
  clear(conversationId: string, agentId: string): void {
    this.db.prepare("DELETE FROM agent_sessions WHERE conversation_id = ? AND agent_id = ?").run(conversationId, agentId);
  }
}
