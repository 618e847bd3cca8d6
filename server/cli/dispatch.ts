/**
 * Data-driven command line: flags and help come from each CommandSpec. Unknown commands and flags exit 2 with one
 * line on stderr, so scripts can tell a usage error from a failure.
 */
import type { CommandEntry, CommandIO, CommandSpec, FlagSpec, ParsedArgs } from "./command.ts";

export const USAGE_ERROR = 2;

export class UsageError extends Error {
  override name = "UsageError";
}

/** Parse `args` (everything after the command name) against a spec's flags and positionals. */
export function parseArgs(spec: CommandSpec, args: string[]): ParsedArgs {
  const flags: ParsedArgs["flags"] = {};
  const positionals: string[] = [];
  const byName = new Map(spec.flags.map((flag) => [flag.name, flag]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "-") {
      if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown flag ${arg} for 'od ${spec.name}' (see od ${spec.name} --help)`);
      positionals.push(arg);
      continue;
    }
    const [rawName, inlineValue] = splitOnce(arg.slice(2), "=");
    const flag = byName.get(rawName);
    if (!flag) throw new UsageError(`unknown flag --${rawName} for 'od ${spec.name}' (see od ${spec.name} --help)`);
    if (flag.type === "boolean") {
      if (inlineValue !== undefined) throw new UsageError(`--${flag.name} takes no value`);
      flags[flag.name] = true;
      continue;
    }
    const value = inlineValue ?? args[++i];
    if (value === undefined) throw new UsageError(`--${flag.name} needs a value (${flag.valueName ?? flag.type})`);
    const parsed = flag.type === "number" ? parseNumber(flag, value) : value;
    if (flag.repeatable) flags[flag.name] = [...((flags[flag.name] as string[] | undefined) ?? []), String(parsed)];
    else flags[flag.name] = parsed;
  }
  const declared = spec.positionals ?? [];
  const required = declared.filter((p) => !p.optional && !p.variadic).length;
  if (positionals.length < required) {
    throw new UsageError(`'od ${spec.name}' needs ${declared.filter((p) => !p.optional).map((p) => p.name).join(" ")}`);
  }
  if (!declared.some((p) => p.variadic) && positionals.length > declared.length) {
    throw new UsageError(`unexpected argument '${positionals[declared.length]}' for 'od ${spec.name}'`);
  }
  return { flags, positionals };
}

function parseNumber(flag: FlagSpec, value: string): number {
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number)) throw new UsageError(`--${flag.name} must be a number, not '${value}'`);
  return number;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator);
  return index === -1 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)];
}

export function commandHelp(spec: CommandSpec): string {
  const positionals = (spec.positionals ?? []).map((p) => (p.optional || p.variadic ? `[${p.name}${p.variadic ? "…" : ""}]` : p.name));
  const lines = [`usage: od ${spec.name}${spec.flags.length ? " [flags]" : ""}${positionals.length ? ` ${positionals.join(" ")}` : ""}`, "", spec.summary];
  if (spec.details) lines.push("", spec.details);
  if (spec.positionals?.length) {
    lines.push("", "arguments:");
    for (const p of spec.positionals) lines.push(`  ${p.name.padEnd(22)} ${p.description}`);
  }
  if (spec.flags.length) {
    lines.push("", "flags:");
    for (const flag of spec.flags) {
      const name = `--${flag.name}${flag.type === "boolean" ? "" : ` ${flag.valueName ?? flag.type.toUpperCase()}`}`;
      lines.push(`  ${name.padEnd(22)} ${flag.description}`);
    }
  }
  lines.push(`  ${"--help".padEnd(22)} show this help`);
  return lines.join("\n") + "\n";
}

export function globalHelp(commands: CommandSpec[], defaultCommand: string): string {
  const rows: [string, string][] = [
    ...commands.map((c): [string, string] => [c.name, `${c.summary}${c.name === defaultCommand ? " (default)" : ""}`]),
    ["--version", "print the version"],
    ["--help", "show this help; `od <command> --help` for one command"],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return [
    "od — drive the coding-agent CLIs you already have from one calm browser tab.",
    "",
    "usage: od [command] [flags]",
    "",
    ...rows.map(([name, text]) => `  ${name.padEnd(width)}${text}`),
    "",
  ].join("\n");
}

/** Run the command line `argv` (without the program name). Returns the exit code. */
export async function dispatch(
  argv: string[],
  commands: readonly CommandEntry[],
  io: CommandIO,
  options: { version: string; defaultCommand: string },
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    io.stdout(`od ${options.version}\n`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" ? commands.find((c) => c.name === rest[0]) : undefined;
    io.stdout(topic ? commandHelp(await topic.load()) : globalHelp(await Promise.all(commands.map((c) => c.load())), options.defaultCommand));
    return 0;
  }
  const named = first !== undefined && !first.startsWith("-") ? commands.find((c) => c.name === first) : undefined;
  if (first !== undefined && !first.startsWith("-") && !named) {
    io.stderr(`od: unknown command '${first}' (commands: ${commands.map((c) => c.name).join(", ")})\n`);
    return USAGE_ERROR;
  }
  const spec = await (named ?? commands.find((c) => c.name === options.defaultCommand)!).load();
  const args = named ? rest : argv;
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(commandHelp(spec));
    return 0;
  }
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(spec, args);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`od: ${error.message}\n`);
      return USAGE_ERROR;
    }
    throw error;
  }
  return spec.run(parsed, io);
}
