/**
 * A tar stream (POSIX ustar, with a pax `path` record for names longer than the 100-byte field) of files and
 * folders od names itself: how a run's inputs travel to a remote location over the ssh/docker client's stdin,
 * unpacked there by the system's `tar -xf -`. Names are bytes in a header, never shell text. Pure: yields chunks.
 */
import { concatBytes } from "./bytes.ts";

/** One member: a folder (no `data`) or a regular file; `path` is relative, `/`-separated, without `..`. */
export type TarEntry = { path: string; mode: number; data?: Uint8Array | (() => Promise<Uint8Array>) };

const BLOCK = 512;
const encoder = new TextEncoder();

/** The stream of `entries`, then the two empty blocks that end an archive. */
export async function* tarChunks(entries: Iterable<TarEntry>): AsyncGenerator<Uint8Array> {
  for (const entry of entries) {
    checkPath(entry.path);
    const isDir = entry.data === undefined;
    const name = isDir ? `${entry.path.replace(/\/+$/, "")}/` : entry.path;
    const bytes = isDir ? new Uint8Array(0) : typeof entry.data === "function" ? await entry.data() : entry.data!;
    const nameBytes = encoder.encode(name);
    if (nameBytes.length > 100) {
      const record = paxRecord("path", name);
      yield header({ name: "././@PaxHeader", mode: 0o600, size: record.length, type: "x" });
      yield padded(record);
    }
    yield header({ name: nameBytes.length > 100 ? name.slice(0, 90) : name, mode: entry.mode, size: bytes.length, type: isDir ? "5" : "0" });
    if (bytes.length) yield padded(bytes);
  }
  yield new Uint8Array(BLOCK * 2);
}

/** Every chunk of `chunks` in one array (tests, small archives). */
export async function collectChunks(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return concatBytes(parts);
}

function checkPath(path: string): void {
  if (!path || path.startsWith("/") || path.includes("\0") || path.split("/").includes("..")) throw new Error(`not a relative member path: ${JSON.stringify(path)}`);
}

/** `"<length> <key>=<value>\n"`, where length counts the whole record, its own digits included. */
function paxRecord(key: string, value: string): Uint8Array {
  const body = encoder.encode(` ${key}=${value}\n`).length;
  let length = body + String(body).length;
  if (String(length).length !== String(body).length) length = body + String(length).length;
  return encoder.encode(`${length} ${key}=${value}\n`);
}

function header(fields: { name: string; mode: number; size: number; type: string }): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const put = (offset: number, width: number, text: string | Uint8Array) => block.set((typeof text === "string" ? encoder.encode(text) : text).subarray(0, width), offset);
  const octal = (offset: number, width: number, value: number) => put(offset, width, `${value.toString(8).padStart(width - 1, "0")}\0`);
  put(0, 100, fields.name);
  octal(100, 8, fields.mode & 0o7777);
  octal(108, 8, 0); // uid
  octal(116, 8, 0); // gid
  octal(124, 12, fields.size);
  octal(136, 12, Math.floor(Date.now() / 1000));
  put(148, 8, "        "); // the checksum counts its own field as spaces
  put(156, 1, fields.type);
  put(257, 6, "ustar\0");
  put(263, 2, "00");
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return block;
}

function padded(bytes: Uint8Array): Uint8Array {
  const rest = bytes.length % BLOCK;
  if (rest === 0) return bytes;
  const out = new Uint8Array(bytes.length + BLOCK - rest);
  out.set(bytes);
  return out;
}
