/**
 * The `yaml` package, evaluated the first time a SKILL.md is read or written instead of when od starts. Its module
 * code is about 220 KB; in the compiled binary, evaluating it and compiling a first parse took ~5 ms, paid by every
 * `od run`, although a run that selects no skill never reads one. Loaded synchronously, so the skill library stays
 * synchronous; under Deno, node's require loads the package's CommonJS build.
 */
import type * as Yaml from "yaml";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";

export const yamlPackage = loadOnFirstUse<typeof Yaml>(import.meta.url, "yaml", () => require("yaml"));
