/**
 * The output of od's multi-part remote scripts: a sequence of sections, each `<decimal byte count>\0<bytes>` (the
 * scripts write each part to a file first, so its length is known before its bytes). Pure.
 */

/** The sections of `output`, in order; undefined when it is cut or malformed (a script that died mid-way). */
export function readSections(output: Uint8Array): Uint8Array[] | undefined {
  const sections: Uint8Array[] = [];
  let offset = 0;
  while (offset < output.length) {
    const nul = output.indexOf(0, offset);
    if (nul < 0 || nul - offset > 15) return undefined;
    const header = new TextDecoder().decode(output.subarray(offset, nul));
    if (!/^\d+$/.test(header)) return undefined;
    const start = nul + 1;
    const end = start + Number(header);
    if (end > output.length) return undefined;
    sections.push(output.subarray(start, end));
    offset = end;
  }
  return sections;
}

/** NUL-terminated records of a section, decoded as UTF-8 (the empty tail after the last NUL dropped). */
export function nulRecords(section: Uint8Array): string[] {
  const records = new TextDecoder().decode(section).split("\0");
  if (records.at(-1) === "") records.pop();
  return records;
}
