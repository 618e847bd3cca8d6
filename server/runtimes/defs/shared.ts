/** Helpers shared by the per-CLI defs (not a registered agent): pure functions, and `lazyAgentDef`, which keeps the def it built. */
import { posix, win32 } from "node:path";
import type { RuntimeAgentDef, RuntimeBuildOptions, RuntimeChoice, RuntimeContext, RuntimeModelOption } from "../types.ts";

/**
 * A shipped def, built the first time it is asked for and kept: `od run --agent X` builds X's alone. Built when their
 * modules load, the 28 object literals (their arrays and closures) cost every start ~0.3 ms, before a short run's
 * agent could start (a build that shipped one def against one that shipped all, 150 interleaved runs each).
 */
export function lazyAgentDef(build: () => RuntimeAgentDef): () => RuntimeAgentDef {
  let def: RuntimeAgentDef | undefined;
  return () => (def ??= build());
}

/** First entry of every model list: pass no model flag and let the CLI's own config decide. */
export const DEFAULT_MODEL_OPTION: RuntimeModelOption = Object.freeze({ id: "default", label: "Default (CLI config)" });

/** Model `"default"`, empty, null or absent means "no model flag". */
export function isDefaultModel(model: string | null | undefined): model is "default" | "" | null | undefined {
  return model === undefined || model === null || model === "" || model === "default";
}

/** Same rule for reasoning/effort choices. */
export const isDefaultChoice = isDefaultModel;

/** Appends `flag model` unless the model is the default. */
export function pushModel(args: string[], flag: string, model: string | null | undefined): void {
  if (!isDefaultModel(model)) args.push(flag, model);
}

/** Appends `flag value` once per value. */
export function pushRepeated(args: string[], flag: string, values: readonly string[]): void {
  for (const value of values) args.push(flag, value);
}

/** `[DEFAULT_MODEL_OPTION, ...models]` from ids or options, without duplicating `default`. */
export function withDefaultModel(models: ReadonlyArray<string | RuntimeModelOption>): RuntimeModelOption[] {
  const options = models.map((entry) => (typeof entry === "string" ? { id: entry, label: entry } : entry));
  return [DEFAULT_MODEL_OPTION, ...options.filter((option) => option.id !== DEFAULT_MODEL_OPTION.id)];
}

/** Choices whose label is the id, optionally preceded by a `default` choice. */
export function choices(ids: readonly string[], options: { withDefault?: boolean } = {}): RuntimeChoice[] {
  const list = ids.map((id) => ({ id, label: id }));
  return options.withDefault ? [{ id: "default", label: "Default" }, ...list] : list;
}

/** Absolute path test for the platform the run targets (a Windows path on Linux is still judged as Windows). */
export function isAbsolutePath(path: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === "win32" ? win32.isAbsolute(path) : posix.isAbsolute(path);
}

/** The capability map of the context (empty when detection has not run). */
export function capsOf(context: RuntimeContext | undefined): Record<string, boolean> {
  return context?.capabilities ?? {};
}

/** The id of the session to continue, if any. */
export function resumeIdOf(context: RuntimeContext | undefined): string | undefined {
  return context?.resumeSessionId ?? undefined;
}

/** Parse a plain one-model-per-line listing: skips blanks, `#` comments and the given header lines. */
export function parseModelLines(stdout: string, headers: readonly string[] = []): RuntimeModelOption[] | null {
  const lowerHeaders = headers.map((header) => header.toLowerCase());
  const models: RuntimeModelOption[] = [];
  for (const raw of stdout.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || lowerHeaders.includes(line.toLowerCase().replace(/:$/, ""))) continue;
    const [id, ...rest] = line.split(/\s+-\s+/);
    if (!id || /\s/.test(id)) continue;
    models.push({ id, label: rest.join(" - ") || id });
  }
  return models.length ? withDefaultModel(models) : null;
}

/** JSON.parse that returns undefined instead of throwing (third-party output). */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Narrow an unknown to a plain record. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** First string among the named fields of a record. */
export function firstString(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return undefined;
}

/** Per-turn inactivity ceiling used by slow, long-running CLIs. */
export const THIRTY_MINUTES_MS = 30 * 60 * 1000;

/** Timeout of ACP handshake-based model discovery. */
export const ACP_MODEL_DISCOVERY = Object.freeze({ timeoutMs: 15_000 });

/**
 * Provider credentials a multi-provider agent (opencode, kilo, pi, aider, …) may need from the user's environment.
 * Credentials not declared by a def never reach its process (server/runtimes/env.ts).
 */
export const MULTI_PROVIDER_ENV: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "OPENROUTER_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "DEEPSEEK_API_KEY",
  "XAI_API_KEY",
  "GROQ_API_KEY",
  "MISTRAL_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
];

/**
 * Whether a run's argv gets the CLI's bypass-permission flag: only in `bypass` mode (the default). `ask` and
 * `read-only` runs use the CLI's own channel instead, and `restricted` (connection tests) neither.
 */
/** An `ask` or `read-only` run: the agent's actions go through the run's approvals (asked, or refused). */
export function guardsActions(mode: RuntimeBuildOptions["permissionMode"]): boolean {
  return mode === "ask" || mode === "read-only";
}

export function bypassesPermissions(options: RuntimeBuildOptions): boolean {
  return options.permissionMode === undefined || options.permissionMode === "bypass";
}
