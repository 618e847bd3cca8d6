/**
 * Prompt budget guards for CLIs that only take the prompt as an argv element (`maxPromptArgBytes` defs such as
 * deepseek, aider, antigravity). An oversized prompt would otherwise surface as a generic spawn `E2BIG` /
 * `ENAMETOOLONG`; these guards turn it into one actionable `AGENT_PROMPT_TOO_LARGE` before anything is spawned.
 *
 * Three guards, all pure:
 * - `checkPromptArgvBudget` — raw UTF-8 bytes of the composed prompt, before the executable is resolved.
 * - `checkWindowsCmdShimCommandLineBudget` — the resolved bin is a `.cmd`/`.bat` shim, so the child really is
 *   `cmd.exe /d /s /c "<inner>"` with cmd quoting.
 * - `checkWindowsDirectExeCommandLineBudget` — any other Windows executable, quoted the way libuv's
 *   `quote_cmd_arg` builds CreateProcess's `lpCommandLine`.
 * The two Windows guards own disjoint resolutions (shim vs not), so at most one of them ever measures a launch.
 * Quote-heavy prompts (code blocks, JSON skill seeds) can fit the raw byte budget and still overflow the
 * 32 767-char command line, which is why the Windows guards re-measure after `buildArgs`.
 */
import type { RuntimeAgentDef } from "./types.ts";

/** The error every guard returns; it becomes the run's `error` event with this code. */
export type PromptTooLargeError = {
  code: "AGENT_PROMPT_TOO_LARGE";
  /** A sentence for people: what happened and what to do. */
  message: string;
  /** UTF-8 bytes of the prompt (argv guard). */
  bytes?: number;
  /** UTF-16 code units of the would-be Windows command line (Windows guards). */
  commandLineLength?: number;
  /** The limit that was exceeded, in the same unit as `bytes` / `commandLineLength`. */
  limit: number;
};

type BudgetDef = Pick<RuntimeAgentDef, "id" | "name" | "maxPromptArgBytes">;

/** CreateProcess caps `lpCommandLine` at 32 767 UTF-16 units; keep headroom for what the OS or a shim adds. */
export const WINDOWS_COMMAND_LINE_LIMIT = 32_767 - 256;
/** Floors for POSIX argv: one argument may be far larger there than the Windows-oriented def budget. */
export const DARWIN_PROMPT_ARG_FLOOR = 262_144;
export const POSIX_PROMPT_ARG_FLOOR = 100_000;

const utf8 = new TextEncoder();

/** The argv budget that applies to this def on this platform. */
export function effectivePromptArgLimit(maxPromptArgBytes: number, platform: NodeJS.Platform): number {
  if (platform === "win32") return maxPromptArgBytes;
  if (platform === "darwin") return Math.max(maxPromptArgBytes, DARWIN_PROMPT_ARG_FLOOR);
  return Math.max(maxPromptArgBytes, POSIX_PROMPT_ARG_FLOOR);
}

/** Guard (a): the composed prompt's UTF-8 size against the def's argv budget. Null when within budget. */
export function checkPromptArgvBudget(
  def: BudgetDef,
  prompt: string,
  platform: NodeJS.Platform = process.platform,
): PromptTooLargeError | null {
  if (!def.maxPromptArgBytes) return null;
  const limit = effectivePromptArgLimit(def.maxPromptArgBytes, platform);
  const bytes = utf8.encode(prompt).length;
  if (bytes <= limit) return null;
  return {
    code: "AGENT_PROMPT_TOO_LARGE",
    message: `The prompt is ${bytes} bytes, over the ${limit}-byte limit for ${def.name}. ${advice(def)}`,
    bytes,
    limit,
  };
}

/** True for a Windows batch shim (`.cmd` / `.bat`, any case), which Windows can only run through cmd.exe. */
export function isWindowsCmdShim(resolvedBin: string): boolean {
  return /\.(cmd|bat)$/i.test(resolvedBin);
}

/** True for a path only Windows would produce: a drive letter, a UNC share, or an `.exe`/`.com` suffix. */
export function isWindowsExecutablePath(resolvedBin: string): boolean {
  return /^[a-z]:[\\/]/i.test(resolvedBin) || /^\\\\/.test(resolvedBin) || /\.(exe|com)$/i.test(resolvedBin);
}

/** Guard (b): the `cmd.exe /d /s /c "<inner>"` line a `.cmd`/`.bat` shim launch really runs. */
export function checkWindowsCmdShimCommandLineBudget(
  resolvedBin: string,
  argv: readonly string[],
  def: BudgetDef,
): PromptTooLargeError | null {
  if (!def.maxPromptArgBytes || !isWindowsCmdShim(resolvedBin)) return null;
  const commandLineLength = windowsCmdShimCommandLine(resolvedBin, argv).length;
  if (commandLineLength <= WINDOWS_COMMAND_LINE_LIMIT) return null;
  return {
    code: "AGENT_PROMPT_TOO_LARGE",
    message:
      `${def.name} runs through a .cmd shim, and with this prompt the cmd.exe command line would be ` +
      `${commandLineLength} characters, over Windows' ${WINDOWS_COMMAND_LINE_LIMIT}-character budget. ${advice(def)}`,
    commandLineLength,
    limit: WINDOWS_COMMAND_LINE_LIMIT,
  };
}

/** Guard (c): the CreateProcess command line of a direct (non-shim) Windows executable. */
export function checkWindowsDirectExeCommandLineBudget(
  resolvedBin: string,
  argv: readonly string[],
  def: BudgetDef,
): PromptTooLargeError | null {
  if (!def.maxPromptArgBytes || isWindowsCmdShim(resolvedBin) || !isWindowsExecutablePath(resolvedBin)) return null;
  const commandLineLength = windowsDirectCommandLine(resolvedBin, argv).length;
  if (commandLineLength <= WINDOWS_COMMAND_LINE_LIMIT) return null;
  return {
    code: "AGENT_PROMPT_TOO_LARGE",
    message:
      `With this prompt the Windows command line for ${def.name} would be ${commandLineLength} characters, ` +
      `over the ${WINDOWS_COMMAND_LINE_LIMIT}-character CreateProcess budget. ${advice(def)}`,
    commandLineLength,
    limit: WINDOWS_COMMAND_LINE_LIMIT,
  };
}

function advice(def: BudgetDef): string {
  return (
    `${def.name} only accepts the prompt as a command-line argument. Reduce the skills or design-system context, ` +
    "shorten the conversation, or pick an agent that reads the prompt from stdin."
  );
}

/** Characters that make cmd.exe treat an argument specially (or split it), so it must be quoted. */
const CMD_SPECIAL = /[\s"&|<>^()%!,;=]/;

/** One argument quoted for a cmd.exe command line: `"` doubled, `%` escaped outside the quotes as `"^%"`. */
export function quoteCmdArg(arg: string): string {
  if (arg === "") return '""';
  if (!CMD_SPECIAL.test(arg)) return arg;
  return `"${arg.replaceAll('"', '""').replaceAll("%", '"^%"')}"`;
}

/** The full cmd.exe command line that runs a batch shim with these arguments. */
export function windowsCmdShimCommandLine(resolvedBin: string, argv: readonly string[]): string {
  const inner = [resolvedBin, ...argv].map(quoteCmdArg).join(" ");
  return `cmd.exe /d /s /c "${inner}"`;
}

/**
 * One argument quoted like libuv's `quote_cmd_arg`: empty → `""`; no space, tab or quote → as is; no quote and no
 * backslash → wrapped; otherwise every `"` becomes `\"` and the backslashes right before a quote (or before the
 * closing wrap quote) are doubled.
 */
export function quoteLibuvArg(arg: string): string {
  if (arg === "") return '""';
  if (!/[ \t"]/.test(arg)) return arg;
  if (!/["\\]/.test(arg)) return `"${arg}"`;
  let out = "";
  let backslashes = 0;
  for (const char of arg) {
    if (char === "\\") {
      backslashes += 1;
      continue;
    }
    if (char === '"') out += "\\".repeat(backslashes * 2 + 1) + '"';
    else out += "\\".repeat(backslashes) + char;
    backslashes = 0;
  }
  return `"${out}${"\\".repeat(backslashes * 2)}"`;
}

/** The CreateProcess command line libuv builds for a direct executable launch. */
export function windowsDirectCommandLine(resolvedBin: string, argv: readonly string[]): string {
  return [resolvedBin, ...argv].map(quoteLibuvArg).join(" ");
}
