/**
 * The `yaml` package, evaluated the first time a SKILL.md is read or written instead of when od starts. Its module
 * code is about 220 KB; in the compiled binary, evaluating it and compiling a first parse took ~5 ms, paid by every
 * `od run`, although a run that selects no skill never reads one. `require` keeps the skill library synchronous:
 * the bundler still embeds the package (as an initializer that runs on this first call), and under Deno, node's
 * require loads the package's CommonJS build.
 */
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

export function yamlPackage(): typeof Yaml {
  loaded ??=
    typeof require === "function"
      ? (require("yaml") as typeof Yaml)
      : (process.getBuiltinModule("node:module").createRequire(import.meta.url)("yaml") as typeof Yaml);
  return loaded;
}
