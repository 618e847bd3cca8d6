/** Every `od` subcommand, in help order. Adding one = adding its spec here. */
import { agentsCommand } from "./agents-command.ts";
import type { CommandSpec } from "./command.ts";
import { parseCommand } from "./parse-command.ts";
import { runCommand } from "./run-command.ts";
import { serveCommand, type ServeRuntime } from "./serve-command.ts";
import { createSetupCommand } from "./setup-command.ts";

export function buildCommands(runtime: ServeRuntime): CommandSpec[] {
  return [serveCommand(runtime), agentsCommand, runCommand(runtime), parseCommand, createSetupCommand({ source: runtime.dshRuntime })];
}
