/**
 * What the binary's shell loads before `od serve` listens: its entry chunk and the chunks that one imports
 * statically. Node's built-ins are JavaScript modules in Bun, and each costs start-up time (node:fs about a
 * millisecond, node:path a third of one), so the shell imports none; the engine loads them after listen, in steps.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildEmbeddedAssets, odBundleConfig } from "../../scripts/build-binary.ts";

/** Static import specifiers of a minified ESM file (`import{a}from"x"`, `import"x"`, `export{a}from"x"`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w${},*\s]+?\s*from\s*)?"([^"]+)"/g)].map((m) => m[1]!);
}

test("the binary's shell imports no node built-in before it listens", async () => {
  await buildEmbeddedAssets();
  const outdir = mkdtempSync(join(tmpdir(), "od-shell-bundle-"));
  try {
    const result = await Bun.build({ ...odBundleConfig(), outdir });
    expect(result.success).toBe(true);
    const entry = result.outputs.find((o) => o.kind === "entry-point")!;
    const seen = new Set<string>();
    const builtins: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of staticImports(readFileSync(file, "utf8"))) {
        if (specifier.startsWith("./")) visit(join(outdir, specifier.slice(2)));
        else if (!specifier.startsWith("/$bunfs/")) builtins.push(specifier);
      }
    };
    visit(entry.path);
    expect(seen.size).toBeGreaterThan(1); // the walk follows the entry's chunk imports
    expect(builtins).toEqual([]);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}, 60_000);
