// Issue #39: every icon is an SVG (web/components/icons.tsx). A symbol or emoji character used as an icon draws as an
// empty box where no font has it (🗑 did, without an emoji font), so none is left in the page's code outside comments.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const WEB = join(import.meta.dir, "..", "..", "web");
/** Arrows, math and technical symbols, dingbats, geometric shapes, emoji — but not the minus sign (−, U+2212), which is text. */
const SYMBOL = /[\u2190-\u2211\u2213-\u2BFF\u{1F300}-\u{1FAFF}]/u;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

test("no symbol or emoji character is drawn as an icon anywhere in web/", () => {
  const found: string[] = [];
  for (const file of sources(WEB)) {
    readFileSync(file, "utf8").split("\n").forEach((line, index) => {
      const code = line.replace(/\/\/.*$/, "").replace(/\/\*.*?\*\//g, "");
      if (/^\s*\*/.test(code)) return; // a doc comment's line
      const symbol = SYMBOL.exec(code);
      if (symbol) found.push(`${file.slice(WEB.length + 1)}:${index + 1}: ${symbol[0]}`);
    });
  }
  expect(found).toEqual([]);
});
