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
 * The text of a `messages` row, as an SQL expression over its columns `text`, `text_in_events` and `events_json`.
 * Events that are not JSON (only a damaged row) give an empty text rather than failing the conversation's list.
 */
export const MESSAGE_TEXT_SQL = `CASE
  WHEN text_in_events = 0 THEN text
  WHEN json_valid(events_json) THEN (
    SELECT coalesce(group_concat(
      CASE part.value ->> 'type'
        WHEN 'text' THEN part.value ->> 'text'
        WHEN 'truncated' THEN CASE WHEN (part.value ->> 'omittedChars') > 0
          THEN ${sqlString(BEFORE_COUNT)} || (part.value ->> 'omittedChars') || ${sqlString(AFTER_COUNT)} END
      END, '' ORDER BY part.key), '')
    FROM json_each(events_json) AS part WHERE part.type = 'object')
  ELSE '' END`;
