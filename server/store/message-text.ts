/**
 * A finished answer's text is stored once, inside its folded events (`messages.events_json`), not a second time in
 * `messages.text` (migration 9: such rows have `text_in_events = 1` and an empty `text`). Readers join it in sqlite,
 * so a long answer is never parsed in JavaScript to be read: its text parts in order, with a line where the fold left
 * characters out. That is the rule of `textOf` in server/runs/fold.ts; tests/store/message-text.test.ts checks that
 * both give the same text.
 */
import { omittedTextLine } from "../contracts/omitted-text.ts";

/** The marker line around its number, taken from the one definition of it. */
const COUNT = 987_654_321;
const [BEFORE_COUNT, AFTER_COUNT] = omittedTextLine(COUNT).split(String(COUNT)) as [string, string];

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * `{ valid, text }` of an answer stored once, from its folded events bound as the statement's one parameter (read from
 * the row once: each use of a column holding megabytes reads its pages again). Events that are not JSON (only a damaged
 * row) give `valid = 0` and an empty text rather than failing the conversation's list. json_each yields the parts in
 * their order and group_concat joins them in the order it gets them; `ORDER BY part.key` would have sqlite sort the
 * parts first, megabytes spilled to a temp file past its small page cache (a 4 MB answer: ~10 ms without, up to 265 ms
 * with). tests/store/message-text.test.ts checks the order on folds of many parts.
 */
export const TEXT_FROM_EVENTS_SQL = `SELECT json_valid(?1) AS valid, CASE WHEN json_valid(?1) THEN (
    SELECT coalesce(group_concat(
      CASE part.value ->> 'type'
        WHEN 'text' THEN part.value ->> 'text'
        WHEN 'truncated' THEN CASE WHEN (part.value ->> 'omittedChars') > 0
          THEN ${sqlString(BEFORE_COUNT)} || (part.value ->> 'omittedChars') || ${sqlString(AFTER_COUNT)} END
      END, ''), '')
    FROM json_each(?1) AS part WHERE part.type = 'object')
  ELSE '' END AS text`;

/**
 * Keeps the text of the answer whose message id is the statement's one parameter (migration 17), joined by
 * `TEXT_FROM_EVENTS_SQL` from the row's events in the same statement: what is kept is what the row holds, whatever
 * wrote it since it was listed. Nothing is kept for a row that is not an answer stored once or whose events are not
 * JSON. Each of the join's uses of the events reads them from the row once (a subquery that does not depend on the
 * outer row): for a 683 KB answer's 1.5 MB of events, the statement took 8 ms, the join alone 4.5.
 */
export const KEEP_TEXT_SQL = `INSERT OR REPLACE INTO message_texts (message_id, text)
  SELECT ?1, text FROM (${TEXT_FROM_EVENTS_SQL.replaceAll("?1", "(SELECT events_json FROM messages WHERE id = ?1 AND text_in_events = 1)")})
  WHERE valid`;

export const KEPT_TEXT_SQL = "SELECT text FROM message_texts WHERE message_id = ?";
