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

/** A value kept as its JSON text with that text's checksum: read back only while the two still agree. */
export type Sealed = { sum: string; entry: string };

export function seal(value: unknown): Sealed {
  const entry = JSON.stringify(value);
  return { sum: textChecksum(entry), entry };
}

/** Whether `sealed` is a sealed entry whose text is as it was sealed. */
export function isIntact(sealed: unknown): sealed is Sealed {
  if (!sealed || typeof sealed !== "object") return false;
  const { sum, entry } = sealed as Partial<Sealed>;
  return typeof sum === "string" && typeof entry === "string" && textChecksum(entry) === sum;
}

/** The value of an intact sealed entry; undefined for anything else. Its shape is the writer's: check the format first. */
export function unseal<T>(sealed: unknown): T | undefined {
  if (!isIntact(sealed)) return undefined;
  try {
    return JSON.parse(sealed.entry) as T;
  } catch {
    return undefined;
  }
}
