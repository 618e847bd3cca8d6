/**
 * Agent Markdown → a tree of plain data (never HTML). `marked`'s lexer does the CommonMark + GFM parsing (tables,
 * nested and task lists, fenced code, autolinks); this module only decides what of its tokens may reach the page.
 * Views render the tree with Preact, which escapes every text node and attribute, so agent text cannot become
 * markup: raw HTML stays literal text, links keep only absolute http(s) targets, images become links to their
 * source (nothing is fetched).
 */
import { Lexer, type Token, type Tokens } from "marked";

export type MdInline =
  | { t: "text"; v: string }
  | { t: "code"; v: string }
  | { t: "strong"; c: MdInline[] }
  | { t: "em"; c: MdInline[] }
  | { t: "del"; c: MdInline[] }
  | { t: "link"; href: string; c: MdInline[] }
  | { t: "br" };

export type MdAlign = "left" | "center" | "right" | null;

/** A list item's content; `task` items carry a checkbox. */
export type MdListItem = { task: boolean; checked: boolean; c: MdBlock[] };

export type MdBlock =
  | { t: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; c: MdInline[] }
  | { t: "para"; c: MdInline[] }
  /** Text of a tight list item: inline content without a paragraph around it. */
  | { t: "text"; c: MdInline[] }
  | { t: "list"; ordered: boolean; start: number; items: MdListItem[] }
  | { t: "code"; lang: string; v: string }
  | { t: "quote"; c: MdBlock[] }
  | { t: "table"; align: MdAlign[]; head: MdInline[][]; rows: MdInline[][][] }
  | { t: "hr" };

/** An href we will put in the DOM: absolute http(s) only (no javascript:, data:, mailto:, relative or protocol-relative). */
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

/** GitHub-flavoured Markdown, no HTML-specific rewriting (marked's defaults otherwise). */
const LEX_OPTIONS = { gfm: true, breaks: false } as const;

export function parseMarkdown(source: string): MdBlock[] {
  return blocks(Lexer.lex(source, LEX_OPTIONS));
}

/** Inline Markdown only (one line of text: a title, a table cell). */
export function parseInline(source: string): MdInline[] {
  return inlines(Lexer.lexInline(source, LEX_OPTIONS));
}

function blocks(tokens: Token[]): MdBlock[] {
  const out: MdBlock[] = [];
  for (const token of tokens) {
    const block = toBlock(token as Tokens.Generic);
    if (block) out.push(block);
  }
  return out;
}

function toBlock(token: Tokens.Generic): MdBlock | null {
  switch (token.type) {
    case "space":
    case "def": // link reference definitions are resolved into their links by the lexer
      return null;
    case "heading":
      return { t: "heading", level: token.depth as 1, c: inlines(token.tokens ?? []) };
    case "paragraph":
      return { t: "para", c: trimEnd(inlines(token.tokens ?? [])) };
    case "text":
      return { t: "text", c: trimEnd(token.tokens ? inlines(token.tokens) : textOf(token.text)) };
    case "code":
      // An unclosed fence (still streaming) is code to the end, as CommonMark says.
      return { t: "code", lang: languageOf(token.lang), v: token.text };
    case "blockquote":
      return { t: "quote", c: blocks(token.tokens ?? []) };
    case "list": {
      const list = token as Tokens.List;
      return { t: "list", ordered: list.ordered, start: typeof list.start === "number" ? list.start : 1, items: list.items.map(listItem) };
    }
    case "table": {
      const table = token as Tokens.Table;
      return { t: "table", align: table.align, head: table.header.map((cell) => inlines(cell.tokens)), rows: table.rows.map((row) => row.map((cell) => inlines(cell.tokens))) };
    }
    case "hr":
      return { t: "hr" };
    case "html":
      // Raw HTML is shown as the text the agent wrote.
      return { t: "para", c: [{ t: "text", v: token.raw.replace(/\n+$/, "") }] };
    default:
      return token.raw.trim() ? { t: "para", c: [{ t: "text", v: token.raw.trim() }] } : null;
  }
}

function listItem(item: Tokens.ListItem): MdListItem {
  const content = item.tokens.filter((token) => token.type !== "checkbox");
  return { task: Boolean(item.task), checked: Boolean(item.checked), c: blocks(content) };
}

/** The first word of a fence's info string (` ```ts title="x" ` → `ts`), lower-cased. */
function languageOf(info: string | undefined): string {
  return (info ?? "").trim().split(/\s+/)[0]!.toLowerCase();
}

function inlines(tokens: Token[]): MdInline[] {
  const out: MdInline[] = [];
  for (const token of tokens) out.push(...toInline(token as Tokens.Generic));
  return mergeText(out);
}

function toInline(token: Tokens.Generic): MdInline[] {
  switch (token.type) {
    case "text":
      return token.tokens ? inlines(token.tokens) : textOf(token.text);
    case "escape":
      return [{ t: "text", v: token.text }];
    case "codespan":
      return [{ t: "code", v: token.text }];
    case "strong":
    case "em":
    case "del":
      return [{ t: token.type, c: inlines(token.tokens ?? []) }];
    case "br":
      return [{ t: "br" }];
    case "link": {
      const label = inlines(token.tokens ?? []);
      const href = safeHref(token.href);
      return href ? [{ t: "link", href, c: label }] : label; // unsafe target: keep the words, drop the link
    }
    case "image": {
      // Nothing is loaded from agent text: an image becomes a link to it, labelled by its alt text.
      const href = safeHref(token.href);
      const label: MdInline[] = [{ t: "text", v: token.text || token.href }];
      return href ? [{ t: "link", href, c: label }] : label;
    }
    case "html":
      return [{ t: "text", v: token.raw }];
    case "checkbox": // a task item's box (inside the paragraph of a loose item): its list item draws it
      return [];
    default:
      return token.raw ? [{ t: "text", v: token.raw }] : [];
  }
}

/** The lexer leaves named entities for an HTML renderer; ours writes text nodes, so the common ones are decoded here. */
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function textOf(text: string): MdInline[] {
  return [{ t: "text", v: text.replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!) }];
}

/** Adjacent text runs (split by escapes and entities) become one node. */
/** CommonMark drops a paragraph's final whitespace (the lexer keeps it on the last line when no newline follows). */
function trimEnd(nodes: MdInline[]): MdInline[] {
  const last = nodes.at(-1);
  if (last?.t !== "text") return nodes;
  const v = last.v.trimEnd();
  return v ? [...nodes.slice(0, -1), { t: "text", v }] : nodes.slice(0, -1);
}

function mergeText(nodes: MdInline[]): MdInline[] {
  const out: MdInline[] = [];
  for (const node of nodes) {
    const last = out.at(-1);
    if (node.t === "text" && last?.t === "text") out[out.length - 1] = { t: "text", v: last.v + node.v };
    else out.push(node);
  }
  return out;
}
