/**
 * node:buffer, fetched at its first use instead of imported: loading it costs a compiled program ~0.25 ms, which every
 * `od run` paid before its agent started although nothing there needs it (tests/e2e/shell-imports.e2e.test.ts).
 */
let loaded: typeof import("node:buffer") | undefined;

export function nodeBuffer(): typeof import("node:buffer") {
  return (loaded ??= process.getBuiltinModule("node:buffer"));
}
