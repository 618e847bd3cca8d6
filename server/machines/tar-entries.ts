/**
 * The regular files and symlinks of a tar stream (GNU, ustar or pax, as GNU tar writes them), read from bytes that
 * may be cut anywhere: an entry whose header or body is incomplete is left out, as is everything after it. Pure.
 */

export type TarEntry = { kind: "file"; bytes: Uint8Array } | { kind: "symlink"; target: string } | { kind: "other" };

const BLOCK = 512;

/** Entry name → entry, names as stored (a leading `./` kept). */
export function readTarEntries(tar: Uint8Array): Map<string, TarEntry> {
  const entries = new Map<string, TarEntry>();
  let offset = 0;
  /** Set by a GNU long-name/long-link entry or a pax header, for the entry that follows. */
  let next: { path?: string; linkpath?: string; size?: number } = {};
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = next.size ?? octal(header.subarray(124, 136));
    if (size === undefined) break;
    const body = offset + BLOCK;
    const end = body + size;
    if (end > tar.length) break;
    const content = tar.subarray(body, end);
    offset = body + Math.ceil(size / BLOCK) * BLOCK;
    const type = String.fromCharCode(header[156]!);
    if (type === "L") next.path = cString(content);
    else if (type === "K") next.linkpath = cString(content);
    else if (type === "x") next = { ...next, ...paxRecords(content) };
    else if (type !== "g") {
      const name = next.path ?? ustarName(header);
      const target = next.linkpath ?? cString(header.subarray(157, 257));
      entries.set(name, type === "0" || type === "\0" || type === "7" ? { kind: "file", bytes: content } : type === "2" ? { kind: "symlink", target } : { kind: "other" });
      next = {};
    }
  }
  return entries;
}

/** The name of a ustar header: `prefix/name` for POSIX ustar (GNU's own format keeps other fields there). */
function ustarName(header: Uint8Array): string {
  const name = cString(header.subarray(0, 100));
  const posix = cString(header.subarray(257, 263)) === "ustar" && header[263] === 0x30 && header[264] === 0x30;
  const prefix = posix ? cString(header.subarray(345, 500)) : "";
  return prefix ? `${prefix}/${name}` : name;
}

/** An octal numeric field; undefined for base-256 (sizes far beyond anything od reads) or garbage. */
function octal(field: Uint8Array): number | undefined {
  if (field[0]! & 0x80) return undefined;
  const text = new TextDecoder().decode(field).replace(/[\0 ]+$/, "").trim();
  return /^[0-7]+$/.test(text) ? parseInt(text, 8) : text === "" ? 0 : undefined;
}

function cString(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return new TextDecoder().decode(nul < 0 ? bytes : bytes.subarray(0, nul));
}

/** `<length> key=value\n` records of a pax extended header: the ones that matter here. */
function paxRecords(bytes: Uint8Array): { path?: string; linkpath?: string; size?: number } {
  const found: { path?: string; linkpath?: string; size?: number } = {};
  let offset = 0;
  while (offset < bytes.length) {
    const space = bytes.indexOf(0x20, offset);
    if (space < 0) break;
    const length = Number(new TextDecoder().decode(bytes.subarray(offset, space)));
    if (!Number.isInteger(length) || length <= 0 || offset + length > bytes.length) break;
    const record = new TextDecoder().decode(bytes.subarray(space + 1, offset + length - 1));
    const equals = record.indexOf("=");
    const key = record.slice(0, equals);
    const value = record.slice(equals + 1);
    if (key === "path") found.path = value;
    else if (key === "linkpath") found.linkpath = value;
    else if (key === "size" && /^\d+$/.test(value)) found.size = Number(value);
    offset += length;
  }
  return found;
}
