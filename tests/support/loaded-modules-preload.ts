/**
 * Preloaded into a source run of od (`bun --preload this server/main.ts …`): at exit, writes the paths of every
 * module the process loaded, one per line, to the file named by OD_TEST_LOADED_MODULES.
 */
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const file = process.env.OD_TEST_LOADED_MODULES;
  if (file) writeFileSync(file, Object.keys(require.cache).join("\n"));
});
