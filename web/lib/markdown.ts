/**
 * A small Markdown parser for agent text. It produces a tree of plain data (never HTML): views render it with
 * Preact, which escapes every text node and attribute, so agent text cannot become markup. Raw HTML in the input
 * stays literal text; links keep only http(s) targets.
 */

export type MdInline =
  | { t: "text"; v: string }
  | { t: "code"; v: string }
  | { t: "strong"; c: MdInline[] }
  | { t: "em"; c: MdInline[] }
  | { t: "del"; c: MdInline[] }
  | { t: "link"; href: string; c: MdInline[] };

export type MdBlock =
  | { t: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; c: MdInline[] }
  | { t: "para"; c: MdInline[] }
  | { t: "list"; ordered: boolean; start: number; items: MdInline[][] }
  | { t: "code"; lang: string; v: string }
  | { t: "quote"; c: MdBlock[] }
  | { t: "hr" };

/** An href we will put in the DOM: absolute http(s) only (no javascript:, data:, relative or protocol-relative). */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  if (!/^https?:\/\/[^\s]/i.test(trimmed)) return null;
  try {
    const parsed = new URL(trimmed);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const HR = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

export function parseMarkdown(source: string): MdBlock[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: MdBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      // An unclosed fence (still streaming) runs to the end of the text.
      while (i < lines.length && !lines[i]!.trimStart().startsWith(marker)) body.push(lines[i++]!);
      i++;
      blocks.push({ t: "code", lang: fence[2] ?? "", v: body.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ t: "heading", level: heading[1]!.length as 1, c: parseInline(heading[2]!) });
      i++;
      continue;
    }
    if (HR.test(line)) {
      blocks.push({ t: "hr" });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) body.push(QUOTE.exec(lines[i++]!)![1]!);
      blocks.push({ t: "quote", c: parseMarkdown(body.join("\n")) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = ORDERED.exec(line);
    if (bullet || ordered) {
      const pattern = bullet ? BULLET : ORDERED;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const match = pattern.exec(current);
        if (match) items.push(match[match.length - 1]!);
        else if (current.trim() !== "" && /^\s+/.test(current) && items.length > 0) items[items.length - 1] += ` ${current.trim()}`;
        else break;
        i++;
      }
      blocks.push({ t: "list", ordered: !bullet, start: ordered && !bullet ? Number(ordered[1]) : 1, items: items.map(parseInline) });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== "" && !startsBlock(lines[i]!)) para.push(lines[i++]!.trim());
    blocks.push({ t: "para", c: parseInline(para.join("\n")) });
  }
  return blocks;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line) || BULLET.test(line) || ORDERED.test(line);
}

const DELIMS: ReadonlyArray<{ open: string; t: "strong" | "em" | "del" }> = [
  { open: "**", t: "strong" },
  { open: "__", t: "strong" },
  { open: "~~", t: "del" },
  { open: "*", t: "em" },
  { open: "_", t: "em" },
];

export function parseInline(text: string): MdInline[] {
  const out: MdInline[] = [];
  let buffer = "";
  const flush = () => {
    if (buffer) out.push({ t: "text", v: buffer });
    buffer = "";
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1]!)) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const ticks = /^`+/.exec(text.slice(i))![0];
      const close = text.indexOf(ticks, i + ticks.length);
      if (close > 0) {
        flush();
        out.push({ t: "code", v: text.slice(i + ticks.length, close).replace(/^ (.*) $/s, "$1") });
        i = close + ticks.length;
        continue;
      }
      buffer += ticks;
      i += ticks.length;
      continue;
    }
    if (ch === "[") {
      const link = matchLink(text, i);
      if (link) {
        flush();
        const label = parseInline(link.label);
        const href = safeHref(link.url);
        if (href) out.push({ t: "link", href, c: label });
        else out.push(...label); // unsafe target: keep the words, drop the link
        i = link.end;
        continue;
      }
    }
    if ((ch === "h" || ch === "H") && /^https?:\/\//i.test(text.slice(i, i + 8)) && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? " ")) {
      const raw = /^https?:\/\/[^\s<>"'`]+/i.exec(text.slice(i))![0].replace(/[.,;:!?)\]]+$/, "");
      const href = safeHref(raw);
      if (href) {
        flush();
        out.push({ t: "link", href, c: [{ t: "text", v: raw }] });
        i += raw.length;
        continue;
      }
    }
    const delim = DELIMS.find((d) => text.startsWith(d.open, i));
    if (delim && canOpen(text, i, delim.open)) {
      const close = findClose(text, i + delim.open.length, delim.open);
      if (close > 0) {
        flush();
        out.push({ t: delim.t, c: parseInline(text.slice(i + delim.open.length, close)) });
        i = close + delim.open.length;
        continue;
      }
    }
    buffer += ch;
    i++;
  }
  flush();
  return out;
}

function canOpen(text: string, at: number, open: string): boolean {
  const next = text[at + open.length];
  if (next === undefined || /\s/.test(next)) return false;
  // Intraword underscores (snake_case) are not emphasis.
  return !(open[0] === "_" && /[\p{L}\p{N}]/u.test(text[at - 1] ?? " "));
}

function findClose(text: string, from: number, open: string): number {
  for (let j = from + 1; j <= text.length - open.length; j++) {
    if (text[j] === "\\") {
      j++;
      continue;
    }
    if (!text.startsWith(open, j) || /\s/.test(text[j - 1]!)) continue;
    if (open.length === 1 && text[j + 1] === open) {
      j++;
      continue;
    }
    if (open[0] === "_" && /[\p{L}\p{N}]/u.test(text[j + open.length] ?? " ")) continue;
    return j;
  }
  return -1;
}

function matchLink(text: string, at: number): { label: string; url: string; end: number } | null {
  let depth = 0;
  for (let j = at; j < text.length; j++) {
    if (text[j] === "[") depth++;
    else if (text[j] === "]" && --depth === 0) {
      if (text[j + 1] !== "(") return null;
      const close = closingParen(text, j + 2);
      if (close < 0) return null;
      const target = text.slice(j + 2, close).trim().split(/\s+/)[0] ?? "";
      return { label: text.slice(at + 1, j), url: target.replace(/^<(.*)>$/, "$1"), end: close + 1 };
    }
  }
  return null;
}

/** Index of the `)` that closes a link target starting at `from`, allowing balanced parentheses inside it. */
function closingParen(text: string, from: number): number {
  let depth = 0;
  for (let k = from; k < text.length; k++) {
    if (text[k] === "(") depth++;
    else if (text[k] === ")" && depth-- === 0) return k;
    else if (text[k] === "\n") return -1;
  }
  return -1;
}
