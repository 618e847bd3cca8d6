/**
 * SKILL.md frontmatter YAML, read and written with the `yaml` package (YAML 1.2 core schema, plus `<<` merge keys).
 * Anchors, aliases, multi-line quoted strings, block scalars and flow collections all parse as the spec says.
 * What the package reports as an error or warning (and a top level that is not a map, an unknown tag, an alias
 * that points nowhere or expands too far) becomes one message with the line it is on. Pure; never throws.
 */
import type { Document, YAMLError } from "yaml";
import { yamlPackage } from "./yaml-package.ts";

/** A parsed YAML value. */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };
export type YamlMap = { [key: string]: YamlValue };

export type YamlResult = { ok: true; value: YamlMap } | { ok: false; error: string; line: number };

/** Alias expansions allowed before a document counts as an alias bomb (the package's own default, stated). */
const MAX_ALIAS_COUNT = 100;

/** Hints for the mistakes people make most in frontmatter, keyed by the package's error code. */
const HINTS: Partial<Record<YAMLError["code"], string>> = {
  BLOCK_AS_IMPLICIT_KEY: "a plain value cannot contain ': ' — quote it",
  TAB_AS_INDENT: "indent with spaces",
};

/** Parses a YAML document whose top level is a map. `firstLine` numbers the document's first line (for messages). */
export function parseFrontmatterYaml(source: string, firstLine = 1): YamlResult {
  const { isMap, LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const lineAt = (offset: number) => lines.linePos(offset).line + firstLine - 1;
  // logLevel "error": warnings are read from doc.warnings below, never printed ("silent" would also drop the
  // multiple-documents error).
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false, merge: true, resolveKnownTags: false, logLevel: "error" });

  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) return { ok: false, error: describe(problem), line: lineAt(unclosedQuoteStart(doc, problem) ?? problem.pos[0]) };
  if (doc.contents === null) return { ok: true, value: {} };
  if (!isMap(doc.contents)) return { ok: false, error: "the frontmatter must be a map of keys", line: lineAt(doc.contents.range[0]) };

  const dangling = danglingAlias(doc);
  if (dangling) return { ok: false, error: `alias '*${dangling.source}' has no anchor before it`, line: lineAt(dangling.offset) };
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as YamlMap };
  } catch (error) {
    // The only throw left is the alias-expansion limit; it has no position of its own.
    return { ok: false, error: error instanceof Error ? error.message : String(error), line: firstLine };
  }
}

/** Renders a frontmatter map as YAML (one line per scalar: long strings are not folded). */
export function stringifyFrontmatterYaml(value: YamlMap): string {
  return yamlPackage().stringify(value, { lineWidth: 0 }).trimEnd();
}

function describe(problem: YAMLError): string {
  const message = problem.message.replace("tag:yaml.org,2002:", "!!");
  const hint = /^Missing closing .?quote$/.test(message) ? "the string runs to the end of the frontmatter" : HINTS[problem.code];
  return hint ? `${message} (${hint})` : message;
}

/** The package reports an unclosed quote where the text ran out; the line that opened it is the useful one. */
function unclosedQuoteStart(doc: Document, problem: YAMLError): number | undefined {
  if (problem.code !== "MISSING_CHAR" || !/quote/.test(problem.message)) return undefined;
  const { visit } = yamlPackage();
  let start: number | undefined;
  visit(doc, {
    Scalar(_, node) {
      if ((node.type !== "QUOTE_DOUBLE" && node.type !== "QUOTE_SINGLE") || node.range?.[1] !== problem.pos[0]) return undefined;
      start = node.range[0];
      return visit.BREAK;
    },
  });
  return start;
}

function danglingAlias(doc: Document): { source: string; offset: number } | null {
  const { visit } = yamlPackage();
  let found: { source: string; offset: number } | null = null;
  visit(doc, {
    Alias(_, node) {
      if (node.resolve(doc) !== undefined) return undefined;
      found = { source: node.source, offset: node.range?.[0] ?? 0 };
      return visit.BREAK;
    },
  });
  return found;
}
