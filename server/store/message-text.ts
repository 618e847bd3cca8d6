/**
 * A finished answer's text is stored once, inside its folded events (`messages.events_json`), not a second time in
 * `messages.text` (migration 9: such rows have `text_in_events = 1` and an empty `text`). Readers join it in sqlite,
 * so a long answer is never parsed in JavaScript to be read: its text parts in order, with a line where the fold left
 * characters out. That is the rule of `textOf` in server/runs/fold.ts; tests/store/message-text.test.ts checks that
 * both give the same text.
 *
 * A long part's text went to `message_text_pieces` as the run streamed (migration 18): the stored part holds what came
 * after its pieces and their key (`pieced`), and every reader here puts the pieces back in front of it.
 */
import { omittedTextLine } from "../contracts/omitted-text.ts";

/** The marker line around its number, taken from the one definition of it. */
function omittedTextAround(): [before: string, after: string] {
  const count = 987_654_321;
  return omittedTextLine(count).split(String(count)) as [string, string];
}

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The text of the pieces of one part (`message` and `key` are SQL expressions), "" when it has none. The subquery
 * gives the pieces in `seq` order (read along the table's primary key, nothing sorted) and group_concat joins them in
 * the order it gets them.
 */
export const piecesTextSql = (message: string, key: string) => `coalesce((
    SELECT group_concat(piece.text, '') FROM (
      SELECT text FROM message_text_pieces WHERE message_id = ${message} AND part_key = ${key} ORDER BY seq
    ) AS piece), '')`;

/** The whole text of the stored part `part` (a json_each row) of `message`: its pieces in order, then its own text. */
const partTextSql = (message: string) => `CASE WHEN part.value ->> 'pieced' IS NULL THEN part.value ->> 'text'
    ELSE ${piecesTextSql(message, "part.value ->> 'pieced'")} || (part.value ->> 'text') END`;

/**
 * `{ valid, text }` of an answer stored once, from its folded events (`events`, an SQL expression), its message id
 * (`message`) and the omitted-text marker around its number. Bound as parameters (`textFromEvents` below), the events
 * are read from the row once: each use of a column holding megabytes reads its pages again.
 * Events that are not JSON (only a damaged row) give `valid = 0` and an empty text rather than failing the
 * conversation's list. json_each yields the parts in their order and group_concat joins them in the order it gets
 * them; `ORDER BY part.key` would have sqlite sort the parts first, megabytes spilled to a temp file past its small
 * page cache (a 4 MB answer: ~10 ms without, up to 265 ms with). tests/store/message-text.test.ts checks the order on
 * folds of many parts and of many pieces.
 */
const textFromEventsSql = (events: string, message: string, [before, after]: [string, string]) => `SELECT json_valid(${events}) AS valid, CASE WHEN json_valid(${events}) THEN (
    SELECT coalesce(group_concat(
      CASE part.value ->> 'type'
        WHEN 'text' THEN ${partTextSql(message)}
        WHEN 'truncated' THEN CASE WHEN (part.value ->> 'omittedChars') > 0
          THEN ${sqlString(before)} || (part.value ->> 'omittedChars') || ${sqlString(after)} END
      END, ''), '')
    FROM json_each(${events}) AS part WHERE part.type = 'object')
  ELSE '' END AS text`;

/**
 * The statements that read an answer stored once, built at the first read of a conversation's messages (a short
 * `od run` reads none; building them on every start took ~0.1 ms of its way to the agent's start).
 */
export type MessageTextStatements = {
  /** `{ valid, text }`: the events bound as the statement's first parameter, the message id as its second. */
  textFromEvents: string;
  /**
   * Keeps the text of the answer whose message id is the statement's one parameter (migration 17), joined by
   * `textFromEvents` from the row's events in the same statement: what is kept is what the row holds, whatever wrote
   * it since it was listed. Nothing is kept for a row that is not an answer stored once or whose events are not JSON.
   * Each of the join's uses of the events reads them from the row once (a subquery that does not depend on the outer
   * row): for a 683 KB answer's 1.5 MB of events, the statement took 8 ms, the join alone 4.5.
   */
  keepText: string;
  /**
   * The folded events of message ?2 as readers get them, from the stored ones bound as ?1 (valid JSON): each pieced
   * part with its pieces put back in front of its text and its `pieced` key gone. Asked only of a message with pieces;
   * json_group_array keeps json_each's order, as group_concat does above.
   */
  eventsWithPieces: string;
};

let statements: MessageTextStatements | undefined;

export function messageTextStatements(): MessageTextStatements {
  if (statements) return statements;
  const around = omittedTextAround();
  return (statements = {
    textFromEvents: textFromEventsSql("?1", "?2", around),
    keepText: `INSERT OR REPLACE INTO message_texts (message_id, text)
  SELECT ?1, text FROM (${textFromEventsSql("(SELECT events_json FROM messages WHERE id = ?1 AND text_in_events = 1)", "?1", around)})
  WHERE valid`,
    eventsWithPieces: `SELECT json_group_array(
    CASE WHEN part.type = 'object' AND part.value ->> 'pieced' IS NOT NULL
      THEN json_remove(json_set(part.value, '$.text', ${partTextSql("?2")}), '$.pieced')
      ELSE part.value END
  ) AS events_json FROM json_each(?1) AS part`,
  });
}

export const KEPT_TEXT_SQL = "SELECT text FROM message_texts WHERE message_id = ?";

/** Whether message ?1 has pieces (any reader of its events must then join them in). */
export const HAS_PIECES_SQL = "SELECT 1 FROM message_text_pieces WHERE message_id = ?1 LIMIT 1";
