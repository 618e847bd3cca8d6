/**
 * The real coding-agent CLIs the real-CLI suite and the fixture recorder run, each pinned to one version.
 * The single source of truth: setup.ts installs exactly these, recipes.ts and scripts/record-fixtures.ts name
 * CLIs by the keys below, and every recorded fixture's sidecar names the version it was recorded with.
 * qodercli is deliberately absent: it dials public addresses at startup and must never run here.
 */
export const PINNED_CLI_PACKAGES = {
  claude: { pkg: "@anthropic-ai/claude-code", version: "2.1.332" },
  codex: { pkg: "@openai/codex", version: "0.171.0" },
  opencode: { pkg: "opencode-ai", version: "1.18.33" },
  pi: { pkg: "@mariozechner/pi-coding-agent", version: "0.73.1" },
  qwen: { pkg: "@qwen-code/qwen-code", version: "0.24.4" },
  "claude-code-acp": { pkg: "@zed-industries/claude-code-acp", version: "0.16.2" },
  kilo: { pkg: "@kilocode/cli", version: "7.7.7" },
  "codex-acp": { pkg: "@zed-industries/codex-acp", version: "0.16.0" },
  copilot: { pkg: "@github/copilot", version: "1.0.102" },
} as const satisfies Record<string, { pkg: string; version: string }>;

/** A key of {@link PINNED_CLI_PACKAGES}: the name every real-CLI helper uses for a CLI. */
export type RealCliId = keyof typeof PINNED_CLI_PACKAGES;

/** All pinned CLI ids, in install order. */
export const REAL_CLI_IDS = Object.keys(PINNED_CLI_PACKAGES) as RealCliId[];

/** `pkg@version` specs for one `npm install`. */
export function pinnedInstallSpecs(): string[] {
  return REAL_CLI_IDS.map((id) => `${PINNED_CLI_PACKAGES[id].pkg}@${PINNED_CLI_PACKAGES[id].version}`);
}
