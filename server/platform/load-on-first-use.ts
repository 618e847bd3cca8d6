/**
 * A module evaluated the first time it is used instead of when its importer loads: for what a short `od run` seldom
 * needs. zod and the schemas built with it cost every start ~15 ms before the agent could start, though a run parses
 * with them only what a person saved (app config, MCP servers, local profiles, skills).
 *
 * `bunRequire` is the call site's own literal `() => require("…")`, so that Bun's bundler embeds the module as an
 * initializer that runs on this first call; the module is the same instance a static import elsewhere gets. Under
 * Deno an ES module has no `require`, and node's `createRequire` loads the same file from the importer's URL (Deno
 * loads ES modules through it). `specifier` must be the one `bunRequire` names (tests/platform/load-on-first-use.test.ts
 * checks every call site).
 */
export function loadOnFirstUse<T>(importerUrl: string, specifier: string, bunRequire: () => unknown): () => T {
  let loaded: T | undefined;
  return () =>
    (loaded ??= (
      typeof require === "function" ? bunRequire() : process.getBuiltinModule("node:module").createRequire(importerUrl)(specifier)
    ) as T);
}
