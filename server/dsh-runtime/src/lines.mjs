/**
 * Bytes (or strings) → lines, for reading host commands from stdin. Splits on `\n`, drops a trailing `\r`,
 * decodes UTF-8 across chunk boundaries, and yields an unterminated last line at EOF.
 * @param {AsyncIterable<Uint8Array | string>} source
 * @returns {AsyncGenerator<string>}
 */
export async function* readLines(source) {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of source) {
    buffer += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, "");
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== "") yield line;
      newline = buffer.indexOf("\n");
    }
  }
  buffer += decoder.decode();
  if (buffer.trim() !== "") yield buffer.replace(/\r$/, "");
}
