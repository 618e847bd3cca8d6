/**
 * Text that arrives in pieces (a run's deltas, an artifact's body) can split a character above U+FFFF between two of
 * them: UTF-16 holds it as a high surrogate and a low one. Whatever encodes a piece on its own (to a file, to a stored
 * piece of an answer) holds such a half back until the next piece brings the rest.
 */

/** Whether `text` ends in a high surrogate: the first half of a character the next piece may complete. */
export function endsInHighSurrogate(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}
