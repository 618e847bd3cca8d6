/** Read an SSE response into frames (id, event, parsed data), optionally stopping after N frames. */
export type ParsedFrame = { id?: string; event: string; data: unknown };

export async function readSse(response: Response, options: { limit?: number } = {}): Promise<ParsedFrame[]> {
  const frames: ParsedFrame[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let boundary: number;
      while ((boundary = buffer.indexOf("\n\n")) !== -1) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const frame = parseBlock(block);
        if (frame) frames.push(frame);
        if (options.limit !== undefined && frames.length >= options.limit) return frames;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return frames;
}

function parseBlock(block: string): ParsedFrame | undefined {
  let id: string | undefined;
  let event = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":") || line.startsWith("retry:")) continue;
    if (line.startsWith("id: ")) id = line.slice(4);
    else if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("data: ")) data.push(line.slice(6));
  }
  if (!data.length) return undefined;
  const text = data.join("\n");
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { ...(id !== undefined ? { id } : {}), event, data: parsed };
}
