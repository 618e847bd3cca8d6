/**
 * What the binary's shell loads before `od serve` listens: its entry chunk and the chunks that one imports
 * statically. Node's built-ins are JavaScript modules in Bun, and each costs start-up time (node:fs about a
 * millisecond, node:path a third of one), so the shell imports none; the engine loads them after listen, in steps.
 * And what `od run` loads before its agent starts: node:fs and node:path only. node:fs/promises with the node:events it
 * brings, node:os, node:url and node:buffer cost a compiled program ~1.1 + ~1.2, ~0.45, ~1.2 and ~0.25 ms to load, so
 * the modules on the run's path fetch them where a run needs them. The run's path includes what the run service imports
 * when it starts the run (server/runs/run-execution.ts and the attempt machinery). Importing `promises` from node:fs
 * loads node:fs/promises as surely as importing it (~0.3 ms), so such an import counts as node:fs/promises.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildEmbeddedAssets, odBundleConfig } from "../../scripts/build-binary.ts";
import { withBuildLock } from "../support/build-lock.ts";

/** Static import specifiers of a minified ESM file (`import{a}from"x"`, `import"x"`, `export{a}from"x"`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w${},*\s]+?\s*from\s*)?"([^"]+)"/g)].map((m) => m[1]!);
}

/** Whether a minified ESM file imports `promises` from node:fs (`import{promises as x}from"fs"`). */
function importsFsPromises(code: string): boolean {
  return /import\s*\{[^}]*\bpromises\b[^}]*\}\s*from\s*"(?:node:)?fs"/.test(code);
}

/** Dynamic import specifiers of a minified ESM file (`import("./chunk-x.js")`). */
function dynamicImports(code: string): string[] {
  return [...code.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!);
}

/** The bundle as the binary embeds it, in a temp folder; its files' text and a walk of their static imports. */
async function withBundle(use: (bundle: { entry: string; files: string[]; builtinsOf: (roots: string[]) => { chunks: number; builtins: string[] } }) => void): Promise<void> {
  const outdir = mkdtempSync(join(tmpdir(), "od-shell-bundle-"));
  try {
    const result = await withBuildLock(async () => {
      await buildEmbeddedAssets();
      return Bun.build({ ...odBundleConfig(), outdir });
    });
    expect(result.success).toBe(true);
    const builtinsOf = (roots: string[]) => {
      const seen = new Set<string>();
      const builtins = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        const code = readFileSync(file, "utf8");
        if (importsFsPromises(code)) builtins.add("fs/promises");
        for (const specifier of staticImports(code)) {
          if (specifier.startsWith("./")) visit(join(outdir, specifier.slice(2)));
          else if (!specifier.startsWith("/$bunfs/")) builtins.add(specifier);
        }
      };
      for (const root of roots) visit(root);
      return { chunks: seen.size, builtins: [...builtins].sort() };
    };
    use({ entry: result.outputs.find((o) => o.kind === "entry-point")!.path, files: result.outputs.map((o) => o.path), builtinsOf });
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

test("the binary's shell imports no node built-in before it listens", async () => {
  await withBundle(({ entry, builtinsOf }) => {
    const shell = builtinsOf([entry]);
    expect(shell.chunks).toBeGreaterThan(1); // the walk follows the entry's chunk imports
    expect(shell.builtins).toEqual([]);
  });
}, 60_000);

test("`od run` imports only node:fs and node:path of node's built-ins before its agent starts", async () => {
  await withBundle(({ entry, files, builtinsOf }) => {
    // The run command's chunk (found by its summary), and the run machinery it imports when it runs.
    const runCommand = files.find((file) => file.endsWith(".js") && readFileSync(file, "utf8").includes("run one agent on one prompt in a project folder"))!;
    expect(runCommand).toBeDefined();
    const machinery = dynamicImports(readFileSync(runCommand, "utf8")).map((specifier) => join(dirname(runCommand), specifier));
    expect(machinery.length).toBeGreaterThanOrEqual(3); // the store, the services, the data dir's set-up
    // The run's execution (attempts, stream parsers), which the run service imports when it starts the run.
    const execution = files.find((file) => file.endsWith(".js") && readFileSync(file, "utf8").includes("did not answer; this run's changes are not recorded"))!;
    expect(execution).toBeDefined();
    const run = builtinsOf([entry, runCommand, ...machinery, execution]);
    // The bundle names node's built-ins without their `node:` prefix; bun:sqlite is required when the store opens.
    expect(run.builtins.map((name) => name.replace(/^node:/, ""))).toEqual(["fs", "path"]);
  });
}, 60_000);
