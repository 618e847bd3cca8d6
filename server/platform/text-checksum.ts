/**
 * FNV-1a over a text's UTF-16 code units, as 8 hex digits: tells a text as od wrote it from an edited one (a kept
 * detection, a list the page saved), so that od reads back what it checked itself without checking it again. Not a
 * proof against anyone who can write the file: only for files in od's own private data dir.
 */
export function textChecksum(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
