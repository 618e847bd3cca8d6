// Modules loaded on first use name their file twice: once for Bun's bundler (the literal require) and once for Deno
// (createRequire from the importer's URL). Every call site must name the same file both times, and that file must load.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { loadOnFirstUse } from "../../server/platform/load-on-first-use.ts";

const serverDir = join(import.meta.dir, "..", "..", "server");
const CALL = /loadOnFirstUse(?:<[^>]*>)?\(\s*import\.meta\.url,\s*"([^"]+)",\s*\(\)\s*=>\s*require\("([^"]+)"\)\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

test("every call site names one file for Bun and for Deno", () => {
  const sites: string[] = [];
  for (const file of sourceFiles(serverDir)) {
    const text = readFileSync(file, "utf8");
    const calls = text.split("loadOnFirstUse").length - 1;
    const matched = [...text.matchAll(CALL)];
    for (const [, forDeno, forBun] of matched) {
      expect(forDeno).toBe(forBun!);
      sites.push(`${relative(serverDir, file)} → ${forBun}`);
    }
    // Every use in the file is a call of the checked shape (the helper's own module and its imports aside).
    if (!file.endsWith(join("platform", "load-on-first-use.ts"))) expect(calls - countImports(text)).toBe(matched.length);
  }
  expect(sites.length).toBeGreaterThanOrEqual(5); // yaml, app config, MCP, skills, probe timeouts
});

test("the module loads once, on the first call", () => {
  let loads = 0;
  const load = loadOnFirstUse<{ value: number }>(import.meta.url, "./x.ts", () => ({ value: ++loads }));
  expect(loads).toBe(0);
  expect(load().value).toBe(1);
  expect(load().value).toBe(1);
  expect(loads).toBe(1);
});

function countImports(text: string): number {
  return (text.match(/import \{ loadOnFirstUse \} from/g) ?? []).length;
}
