/**
 * The import graph of `server/`: every relative import and re-export of every `.ts` file, type-only ones included
 * (a circle of types is a circle of meaning all the same). Read from the source text: no module is loaded.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export type ImportGraph = Map<string, string[]>;

const IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms;
const SIDE_EFFECT_IMPORT = /^\s*import\s+"(\.{1,2}\/[^"]+)"/gm;

/** Paths relative to the repository root (`server/runs/run-service.ts`) → the files they import. */
export function importGraph(repoRoot: string, folder = "server"): ImportGraph {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith(".ts")) files.push(path);
    }
  };
  walk(resolve(repoRoot, folder));
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    const targets = [...source.matchAll(IMPORT), ...source.matchAll(SIDE_EFFECT_IMPORT)].map((match) => resolve(dirname(file), match[1]!));
    graph.set(relative(repoRoot, file), [...new Set(targets.filter((target) => known.has(target)).map((target) => relative(repoRoot, target)))]);
  }
  return graph;
}

/** The strongly connected groups of more than one file (or a file importing itself): each is an import circle. */
export function importCircles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
