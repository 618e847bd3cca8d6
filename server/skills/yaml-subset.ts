/**
 * A small, strict parser for the YAML subset SKILL.md frontmatter uses: block maps and lists by indentation,
 * plain / "double" / 'single' quoted scalars, `|` and `>` block scalars, flow lists `[a, "b"]` and flow maps
 * `{a: 1}` of scalars, comments. Anchors, aliases, tags, multi-document streams and multi-line quoted strings are
 * refused with a line number rather than guessed at. Pure; never throws.
 */

/** A parsed YAML value. */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };
export type YamlMap = { [key: string]: YamlValue };

export type YamlResult = { ok: true; value: YamlMap } | { ok: false; error: string; line: number };

class YamlError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

type Line = { indent: number; text: string; no: number };

/** Parses a YAML document whose top level is a map. `firstLine` numbers the first line (for messages). */
export function parseYamlSubset(source: string, firstLine = 1): YamlResult {
  const raw = source.replace(/\r\n?/g, "\n").split("\n");
  try {
    const lines: (Line | null)[] = raw.map((text, index) => toLine(text, index + firstLine));
    return { ok: true, value: new Parser(lines, raw, firstLine).document() };
  } catch (error) {
    if (error instanceof YamlError) return { ok: false, error: error.message, line: error.line };
    return { ok: false, error: String(error), line: firstLine };
  }
}

/** null for blank and comment-only lines. */
function toLine(text: string, no: number): Line | null {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.startsWith("#")) return null;
  const indentMatch = /^[ \t]*/.exec(text)![0];
  if (indentMatch.includes("\t")) throw new YamlError("tabs are not allowed for indentation", no);
  return { indent: indentMatch.length, text: text.slice(indentMatch.length).trimEnd(), no };
}

class Parser {
  #at = 0;

  constructor(
    private readonly lines: (Line | null)[],
    private readonly raw: string[],
    private readonly firstLine: number,
  ) {}

  document(): YamlMap {
    const first = this.peek();
    if (!first) return {};
    if (first.indent !== 0) throw new YamlError("the first key must not be indented", first.no);
    if (isSequenceItem(first.text)) throw new YamlError("the frontmatter must be a map of keys, not a list", first.no);
    const value = this.mapping(0);
    const rest = this.peek();
    if (rest) throw new YamlError("unexpected indentation", rest.no);
    return value;
  }

  private peek(): Line | undefined {
    while (this.#at < this.lines.length && this.lines[this.#at] === null) this.#at++;
    return this.lines[this.#at] ?? undefined;
  }

  private block(indent: number, line: Line): YamlValue {
    return isSequenceItem(line.text) ? this.sequence(line.indent) : this.mapping(indent);
  }

  private mapping(indent: number): YamlMap {
    const map: YamlMap = {};
    for (let line = this.peek(); line && line.indent === indent; line = this.peek()) {
      if (isSequenceItem(line.text)) throw new YamlError("a list item where a key was expected", line.no);
      const { key, rest } = splitKey(line);
      if (Object.hasOwn(map, key)) throw new YamlError(`duplicate key '${key}'`, line.no);
      this.#at++;
      map[key] = this.valueAfterKey(indent, rest, line);
    }
    const next = this.peek();
    if (next && next.indent > indent) throw new YamlError("unexpected indentation", next.no);
    return map;
  }

  private valueAfterKey(indent: number, rest: string, line: Line): YamlValue {
    if (rest === "") {
      const next = this.peek();
      if (next && next.indent > indent) return this.block(next.indent, next);
      // `key:` followed by a list at the same indentation is valid YAML.
      if (next && next.indent === indent && isSequenceItem(next.text)) return this.sequence(indent);
      return null;
    }
    const blockScalar = /^([|>])([+-]?)$/.exec(rest);
    if (blockScalar) return this.blockScalar(indent, blockScalar[1] as "|" | ">", blockScalar[2] as "" | "+" | "-");
    const value = inlineValue(rest, line.no);
    if (typeof value === "string" && !/^["'[{]/.test(rest)) return this.foldPlainContinuation(indent, value);
    return value;
  }

  /** A plain scalar may continue on more-indented lines; YAML folds them with spaces. */
  private foldPlainContinuation(indent: number, first: string): string {
    const parts = [first];
    for (let next = this.peek(); next && next.indent > indent; next = this.peek()) {
      if (/^[^"'#][^#]*?:(\s|$)/.test(next.text) || isSequenceItem(next.text)) throw new YamlError("unexpected indentation", next.no);
      parts.push(stripComment(next.text));
      this.#at++;
    }
    return parts.join(" ");
  }

  private sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (let line = this.peek(); line && line.indent === indent && isSequenceItem(line.text); line = this.peek()) {
      const rest = line.text.slice(1).trimStart();
      const offset = line.text.length - rest.length;
      if (rest === "") {
        this.#at++;
        const next = this.peek();
        items.push(next && next.indent > indent ? this.block(next.indent, next) : null);
      } else if (isSequenceItem(rest) || looksLikeKey(rest)) {
        // `- key: value` (or `- - x`): re-read the item's text as a block starting at its own column.
        this.lines[this.#at] = { indent: indent + offset, text: rest, no: line.no };
        items.push(this.block(indent + offset, this.lines[this.#at]!));
      } else {
        this.#at++;
        const value = inlineValue(rest, line.no);
        items.push(typeof value === "string" && !/^["'[{]/.test(rest) ? this.foldPlainContinuation(indent, value) : value);
      }
    }
    const next = this.peek();
    if (next && next.indent > indent) throw new YamlError("unexpected indentation", next.no);
    return items;
  }

  private blockScalar(indent: number, style: "|" | ">", chomp: "" | "+" | "-"): string {
    const collected: string[] = [];
    let contentIndent = -1;
    while (this.#at < this.raw.length) {
      const text = this.raw[this.#at]!;
      const blank = text.trim() === "";
      const lineIndent = /^ */.exec(text)![0].length;
      if (!blank && lineIndent <= indent) break;
      if (!blank && contentIndent < 0) contentIndent = lineIndent;
      if (!blank && lineIndent < contentIndent) throw new YamlError("block scalar line is less indented than its first line", this.#at + this.firstLine);
      collected.push(blank ? "" : text.slice(contentIndent));
      this.lines[this.#at] = null; // consumed: comments inside a block scalar are text
      this.#at++;
    }
    let trailing = 0;
    while (collected.length && collected.at(-1) === "") {
      collected.pop();
      trailing++;
    }
    const body = style === "|" ? collected.join("\n") : foldLines(collected);
    if (!body) return "";
    if (chomp === "-") return body;
    if (chomp === "+") return body + "\n".repeat(trailing + 1);
    return body + "\n";
  }
}

function isSequenceItem(text: string): boolean {
  return text === "-" || text.startsWith("- ");
}

function looksLikeKey(text: string): boolean {
  if (/^["']/.test(text)) {
    const quoted = readQuoted(text, 0);
    return quoted !== null && /^\s*:(\s|$)/.test(text.slice(quoted.end));
  }
  return /^[^\s#[{\]}][^#]*?:(\s|$)/.test(text);
}

function splitKey(line: Line): { key: string; rest: string } {
  const text = line.text;
  if (text.startsWith('"') || text.startsWith("'")) {
    const quoted = readQuoted(text, line.no);
    if (!quoted) throw new YamlError("unterminated quoted key", line.no);
    const after = text.slice(quoted.end);
    const colon = /^\s*:(\s|$)/.exec(after);
    if (!colon) throw new YamlError("expected ':' after the key", line.no);
    return { key: quoted.value, rest: after.slice(colon[0].length).trim() };
  }
  const match = /^([^:#]*?[^\s:#]|[^\s:#]):(\s+|$)/.exec(text) ?? /^([^\s].*?):(\s+|$)/.exec(text);
  if (!match) throw new YamlError(`expected 'key: value', found '${truncate(text)}'`, line.no);
  const key = match[1]!.trim();
  if (/^[-?&*!|>%@`]/.test(key)) throw new YamlError(`unsupported key syntax '${truncate(key)}'`, line.no);
  return { key, rest: text.slice(match[0].length).trim() };
}

/** A scalar or flow collection written on one line. */
function inlineValue(text: string, lineNo: number): YamlValue {
  if (text.startsWith('"') || text.startsWith("'")) {
    const quoted = readQuoted(text, lineNo);
    if (!quoted) throw new YamlError("unterminated quoted string (multi-line quoted strings are not supported)", lineNo);
    const after = text.slice(quoted.end).trim();
    if (after && !after.startsWith("#")) throw new YamlError(`unexpected text after the quoted string: '${truncate(after)}'`, lineNo);
    return quoted.value;
  }
  if (text.startsWith("[")) return flowSequence(text, lineNo);
  if (text.startsWith("{")) return flowMap(text, lineNo);
  return plainScalar(stripComment(text), lineNo);
}

function plainScalar(text: string, lineNo: number): YamlValue {
  if (/^[&*!]/.test(text)) throw new YamlError("anchors, aliases and tags are not supported", lineNo);
  if (/^[@`%]/.test(text)) throw new YamlError(`a plain value cannot start with '${text[0]}'; quote it`, lineNo);
  if (/^[|>]/.test(text)) throw new YamlError("a block scalar indicator must stand alone after the key", lineNo);
  if (/:(\s|$)/.test(text)) throw new YamlError(`'${truncate(text)}' contains ': ' — quote the value`, lineNo);
  if (text === "~" || /^(null|Null|NULL)$/.test(text)) return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?\d+$/.test(text)) return Number.parseInt(text, 10);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(text)) return Number.parseFloat(text);
  return text;
}

function stripComment(text: string): string {
  const hash = text.search(/\s#/);
  return (hash === -1 ? text : text.slice(0, hash)).trim();
}

/** Reads a quoted string starting at text[0]; `end` is the index after the closing quote. */
function readQuoted(text: string, lineNo: number): { value: string; end: number } | null {
  const quote = text[0];
  let value = "";
  for (let i = 1; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") {
        if (text[i + 1] === "'") {
          value += "'";
          i++;
          continue;
        }
        return { value, end: i + 1 };
      }
      value += ch;
      continue;
    }
    if (ch === '"') return { value, end: i + 1 };
    if (ch !== "\\") {
      value += ch;
      continue;
    }
    const next = text[++i];
    const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "0": "\0", '"': '"', "\\": "\\", "/": "/", " ": " ", e: "\x1b" };
    if (next !== undefined && simple[next] !== undefined) value += simple[next];
    else if (next === "u" || next === "x" || next === "U") {
      const width = next === "x" ? 2 : next === "u" ? 4 : 8;
      const hex = text.slice(i + 1, i + 1 + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) throw new YamlError(`bad escape \\${next}${hex}`, lineNo);
      value += String.fromCodePoint(Number.parseInt(hex, 16));
      i += width;
    } else throw new YamlError(`unknown escape \\${next ?? ""}`, lineNo);
  }
  return null;
}

/** Splits `a, "b, c", d` on top-level commas. */
function splitFlow(inner: string, lineNo: number): string[] {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === '"' || ch === "'") {
      const quoted = readQuoted(inner.slice(i), lineNo);
      if (!quoted) throw new YamlError("unterminated quoted string in a flow collection", lineNo);
      current += inner.slice(i, i + quoted.end);
      i += quoted.end - 1;
    } else if (ch === "[" || ch === "{") throw new YamlError("nested flow collections are not supported", lineNo);
    else if (ch === ",") {
      parts.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  else if (parts.length) throw new YamlError("trailing comma in a flow collection", lineNo);
  return parts;
}

function flowBody(text: string, open: string, close: string, lineNo: number): string {
  const end = text.lastIndexOf(close);
  if (end === -1) throw new YamlError(`unterminated '${open}' (multi-line flow collections are not supported)`, lineNo);
  const after = text.slice(end + 1).trim();
  if (after && !after.startsWith("#")) throw new YamlError(`unexpected text after '${close}'`, lineNo);
  return text.slice(1, end);
}

function flowSequence(text: string, lineNo: number): YamlValue[] {
  return splitFlow(flowBody(text, "[", "]", lineNo), lineNo).map((part) => inlineValue(part, lineNo));
}

function flowMap(text: string, lineNo: number): YamlMap {
  const map: YamlMap = {};
  for (const part of splitFlow(flowBody(text, "{", "}", lineNo), lineNo)) {
    const { key, rest } = splitKey({ indent: 0, text: part, no: lineNo });
    if (Object.hasOwn(map, key)) throw new YamlError(`duplicate key '${key}'`, lineNo);
    map[key] = rest === "" ? null : inlineValue(rest, lineNo);
  }
  return map;
}

/** `>` folding: single newlines become spaces, blank lines become newlines. */
function foldLines(lines: string[]): string {
  let out = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i === 0) out = line;
    else if (line === "") out += "\n";
    else out += out.endsWith("\n") || lines[i - 1] === "" ? line : ` ${line}`;
  }
  return out;
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** Renders a value in the same subset (strings always double-quoted, so any text round-trips). */
export function stringifyYamlSubset(value: YamlMap, indent = 0): string {
  const pad = " ".repeat(indent);
  const lines: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const name = /^[A-Za-z_][\w.-]*$/.test(key) ? key : JSON.stringify(key);
    if (Array.isArray(item)) {
      if (item.length === 0) lines.push(`${pad}${name}: []`);
      else {
        lines.push(`${pad}${name}:`);
        for (const entry of item) lines.push(`${pad}  - ${scalarText(entry)}`);
      }
    } else if (item !== null && typeof item === "object") {
      lines.push(`${pad}${name}:`, stringifyYamlSubset(item, indent + 2));
    } else lines.push(`${pad}${name}: ${scalarText(item)}`);
  }
  return lines.join("\n");
}

function scalarText(value: YamlValue): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null) return "null";
  if (typeof value === "object") return JSON.stringify(value); // flow form; only scalars are expected here
  return String(value);
}
