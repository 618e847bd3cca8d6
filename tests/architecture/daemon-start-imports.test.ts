/**
 * What the daemon evaluates before its engine answers, read from the bundle as the binary is built (type imports
 * erased, a `require` on first use left out): the modules `server/daemon.ts` imports statically, and those it,
 * `early.ts` and `engine-loader.ts` import dynamically on the way to a ready engine, with everything they import
 * statically. Whatever an idle daemon never needs stays out of that set and loads on first use, so a static import
 * that pulls it back fails here: zod and every request schema, built by the first request that validates one
 * (without them at idle, the compiled daemon's idle RSS went from 51.4 to 47.8 MB, bench/startup.ts), and the run
 * machinery (attempts, stream parsers, approvals, inputs staging), loaded by the first run or connection test.
 */
import { beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { odBundleConfig } from "../../scripts/build-binary.ts";

const ROOT = join(import.meta.dir, "..", "..");
/** The modules on the daemon's way to a ready engine whose dynamic imports are part of that way. */
const START_PATH = ["server/daemon.ts", "server/early.ts", "server/engine-loader.ts"];

let started: Set<string>;
/** The runtime's built-in modules that way loads (named as the bundle names them: `fs`, `stream/promises`). */
let builtIns: Set<string>;

beforeAll(async () => {
  const result = await Bun.build({ ...odBundleConfig(join(ROOT, "server", "daemon.ts")), metafile: true });
  expect(result.success).toBe(true);
  const { inputs, outputs } = result.metafile!;
  // A dynamic import names the chunk it loads; the chunk names the module it was split at.
  const moduleOfChunk = new Map(Object.entries(outputs).flatMap(([chunk, output]) => (output.entryPoint ? [[chunk, output.entryPoint]] : [])));
  started = new Set();
  builtIns = new Set();
  const visit = (file: string) => {
    if (started.has(file)) return;
    started.add(file);
    for (const { path, kind } of inputs[file]?.imports ?? []) {
      const onTheWay = kind === "import-statement" || (kind === "dynamic-import" && START_PATH.includes(file));
      if (onTheWay && !inputs[path] && !moduleOfChunk.has(path)) builtIns.add(path.replace(/^node:/, ""));
      if (kind === "import-statement") visit(path);
      else if (kind === "dynamic-import" && START_PATH.includes(file) && moduleOfChunk.has(path)) visit(moduleOfChunk.get(path)!);
    }
  };
  visit("server/daemon.ts");
});

test("the walk reaches the engine and its routes (a broken walk would pass every test below)", () => {
  for (const file of ["server/engine.ts", "server/app.ts", "server/http/runs.ts", "server/http/projects.ts", "server/runs/run-service.ts"]) expect(started).toContain(file);
});

test("no zod and no schema before the engine is ready: requests build the ones they validate", () => {
  expect([...started].filter((file) => file.startsWith("node_modules/zod/") || file === "server/contracts/zod.ts")).toEqual([]);
});

test("no run machinery before the engine is ready: the first run or connection test loads it", () => {
  const machinery = ["server/runs/run-execution.ts", "server/runs/attempt.ts", "server/runs/connection-test.ts", "server/runtimes/streams/index.ts", "server/runs/approvals.ts"];
  expect(machinery.filter((file) => started.has(file))).toEqual([]);
});

test("no node:stream/promises before the engine is ready: only copying a skill's files uses it, and imports it then", () => {
  // A walk that saw no built-in at all would pass the check below.
  expect(builtIns).toContain("fs");
  // Loaded as a start-up step it held ~0.7 MB of idle RSS (bench/startup.ts, 6 starts each, interleaved).
  expect(builtIns).not.toContain("stream/promises");
});
