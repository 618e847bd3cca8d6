/**
 * Syntax highlighting for fenced code in agent answers: highlight.js grammars, run through lowlight so the result
 * is a tree of class names and text (never an HTML string). Only a handful of languages agents answer in are
 * registered, to keep the bundle small; any other language (or a very long block) stays plain text.
 */
import bash from "highlight.js/lib/languages/bash";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { createLowlight } from "lowlight";

/** Highlighted code: text, or a span with highlight.js class names (`hljs-keyword`, …) around more of it. */
export type HighlightNode = string | { cls: string; c: HighlightNode[] };

/** Past this many characters a block stays plain: highlighting re-runs on every streamed update. */
const MAX_HIGHLIGHT_CHARS = 20_000;

// Aliases come with the grammars: ts, js, jsx, sh, zsh, console, py, html, svg, yml, golang, rs, patch, …
const lowlight = createLowlight({ bash, diff, go, javascript, json, python, rust, shell, typescript, xml, yaml });

/** True when `language` (a fence's info word) names a registered grammar or one of its aliases. */
export function canHighlight(language: string): boolean {
  return language !== "" && lowlight.registered(language);
}

/** `null` when the language is not registered or the code is too long: render it as plain text. */
export function highlightCode(language: string, code: string): HighlightNode[] | null {
  if (!canHighlight(language) || code.length > MAX_HIGHLIGHT_CHARS) return null;
  return lowlight.highlight(language, code).children.map(toNode);
}

type HastChild = { type: string; value?: string; properties?: { className?: unknown }; children?: HastChild[] };

function toNode(node: HastChild): HighlightNode {
  if (node.type !== "element") return node.value ?? "";
  const classes = Array.isArray(node.properties?.className) ? node.properties.className.map(String) : [];
  return { cls: classes.join(" "), c: (node.children ?? []).map(toNode) };
}
