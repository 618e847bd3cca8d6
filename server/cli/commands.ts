/** Every `od` subcommand, in help order. Adding one = adding its spec here. */
import type { CommandSpec } from "./command.ts";
import { serveCommand, type ServeRuntime } from "./serve-command.ts";

export function buildCommands(runtime: ServeRuntime): CommandSpec[] {
  return [serveCommand(runtime)];
}
