/**
 * What a run's inputs come to, wherever they were prepared (here, or staged on the project's machine): the shapes
 * the run service consumes, kept apart from the code that prepares them so the preparers do not import each other.
 */
import type { McpServerConfig } from "../runtimes/protocols/types.ts";
import type { RuntimeContext } from "../runtimes/types.ts";

/** A diagnostic for the run's event stream. */
export type RunInputNote = {
  kind: string;
  message: string;
  detail?: unknown;
  /** For the person (a `notice` event), not a diagnostic. */
  notice?: true;
};

export type PreparedRunInputs = {
  /** Skill instructions for `composePrompt`'s `systemPreamble` ("" when no skill is selected). */
  systemPreamble: string;
  /** Folders outside the project the agent may read (roots of the selected skills). */
  extraAllowedDirs: string[];
  /** RuntimeContext additions: `skillDirs` (staged skill folders), `mcpConfigPath`, `agentFilePath`. */
  context: Pick<RuntimeContext, "skillDirs" | "mcpConfigPath" | "agentFilePath">;
  /** For protocol transports (`acp-merge`). */
  mcpServers: McpServerConfig[];
  /** Absolute, validated image paths (empty when the def takes no images), where the agent runs. */
  imagePaths: string[];
  /** The same images on this machine, for transports that send their bytes (set when they differ: remote runs). */
  localImagePaths?: string[];
  /** Where a `promptViaFile` def's prompt file goes, and how it is written (in the run's private folder, here or there). */
  promptFile?: { path(attempt: number): string; write(path: string, content: string): Promise<void> };
  /** Adds env-borne config (OPENCODE_CONFIG_CONTENT, …) to the child's env, in place. */
  applyEnv(env: Record<string, string>): Record<string, string>;
  /** Removes temp files (on a remote location too); idempotent. */
  cleanup(): void | Promise<void>;
};
