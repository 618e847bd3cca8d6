/**
 * Every `od` subcommand, in help order. Adding one = adding its entry here. `serve`, the default, is loaded with the
 * shell; the others load when they run (their modules bring node:fs, node:path and more that `od serve` should not
 * pay for before it listens).
 */
import { eagerCommand, type CommandEntry } from "./command.ts";
import { serveCommand, type ServeRuntime } from "./serve-command.ts";

export function buildCommands(runtime: ServeRuntime): CommandEntry[] {
  return [
    eagerCommand(serveCommand(runtime)),
    { name: "open", load: async () => (await import("./open-command.ts")).openCommand },
    { name: "agents", load: async () => (await import("./agents-command.ts")).agentsCommand(runtime) },
    { name: "run", load: async () => (await import("./run-command.ts")).runCommand(runtime) },
    { name: "parse", load: async () => (await import("./parse-command.ts")).parseCommand },
    { name: "setup", load: async () => (await import("./setup-command.ts")).createSetupCommand({ source: runtime.dshRuntime }) },
  ];
}
