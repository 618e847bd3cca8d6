/**
 * How to run each pinned real CLI offline against our fake model server (real-clis.md §3–§11, §15): the
 * environment, the config files under a fresh HOME, and the REAL entry point (the native binary or
 * `node <pkg>/cli.js`, never a node wrapper whose child survives SIGTERM, §15.2).
 * Shared by scripts/record-fixtures.ts and the od-driven real-CLI suite.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REAL_CLI_NODE_MODULES } from "./setup.ts";
import { PINNED_CLI_PACKAGES, type RealCliId } from "./versions.ts";

/** A file a recipe writes, `path` relative to the CLI's fresh HOME. */
export type RecipeFile = { path: string; content: string };

/** Everything needed to start one CLI against the fake. */
export type CliRecipe = {
  id: RealCliId;
  /** The pinned version (versions.ts). */
  version: string;
  /** Variables the CLI needs on top of {@link baseEnv} (keys, base URLs, traffic and telemetry switches). */
  env: Record<string, string>;
  /** Config files to write under HOME before the first run; see {@link writeRecipeFiles}. */
  files: RecipeFile[];
  /** The real entry point: a native binary, or `node` when the entry is a JS file. */
  binPath: string;
  /** Arguments between binPath and the CLI's own arguments (the cli.js path when binPath is node). */
  entryArgs: string[];
  /** Arguments every headless run of this CLI needs against the fake (provider, model, auth type). */
  extraArgs: string[];
};

/** Fake credential handed to every CLI. Never a real key. */
export const FAKE_API_KEY = "sk-fake";

const NODE = "node";
const modules = (...parts: string[]) => join(REAL_CLI_NODE_MODULES, ...parts);
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const version = (id: RealCliId) => PINNED_CLI_PACKAGES[id].version;

/**
 * The complete environment for a CLI child: a minimal base (PATH, HOME, XDG dirs inside HOME, temp dir, locale)
 * plus the recipe's variables. Nothing else is inherited, so no real credential or login leaks in.
 */
export function baseEnv(homeDir: string, recipe: CliRecipe, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: homeDir,
    USER: process.env.USER ?? "root",
    XDG_CONFIG_HOME: join(homeDir, ".config"),
    XDG_DATA_HOME: join(homeDir, ".local", "share"),
    XDG_CACHE_HOME: join(homeDir, ".cache"),
    XDG_STATE_HOME: join(homeDir, ".local", "state"),
    TMPDIR: join(homeDir, "tmp"),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    ...recipe.env,
    ...extra,
  };
}

/** Write the recipe's config files (and the temp dir baseEnv points at) under `homeDir`. */
export function writeRecipeFiles(recipe: CliRecipe, homeDir: string): void {
  mkdirSync(join(homeDir, "tmp"), { recursive: true });
  for (const file of recipe.files) {
    const path = join(homeDir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
}

/** `[binPath, ...entryArgs]`: prepend to the CLI's own arguments. */
export function entryArgv(recipe: CliRecipe): string[] {
  return [recipe.binPath, ...recipe.entryArgs];
}

function claude(url: string): CliRecipe {
  return {
    id: "claude",
    version: version("claude"),
    env: {
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: FAKE_API_KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      CLAUDE_CODE_MAX_RETRIES: "2",
      // We run as root; without this, bypassPermissions exits at once (real-clis.md §9).
      IS_SANDBOX: "1",
    },
    files: [],
    binPath: modules("@anthropic-ai", "claude-code", "bin", "claude.exe"),
    entryArgs: [],
    extraArgs: [],
  };
}

function codexConfig(url: string, sandbox?: string): string {
  return [
    'model = "gpt-5.5"',
    'model_provider = "fakellm"',
    'approval_policy = "never"',
    ...(sandbox ? [`sandbox_mode = "${sandbox}"`] : []),
    "check_for_update_on_startup = false",
    "",
    "[model_providers.fakellm]",
    'name = "Fake LLM"',
    `base_url = "${url}/v1"`,
    'env_key = "FAKE_LLM_API_KEY"',
    'wire_api = "responses"',
    "request_max_retries = 1",
    "stream_max_retries = 0",
    "stream_idle_timeout_ms = 60000",
    "",
    "[analytics]",
    "enabled = false",
    "[feedback]",
    "enabled = false",
    "",
  ].join("\n");
}

function codex(url: string, homeDir: string): CliRecipe {
  return {
    id: "codex",
    version: version("codex"),
    env: { CODEX_HOME: join(homeDir, "codex-home"), FAKE_LLM_API_KEY: FAKE_API_KEY },
    files: [{ path: "codex-home/config.toml", content: codexConfig(url) }],
    binPath: modules("@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex"),
    entryArgs: [],
    extraArgs: [],
  };
}

function codexAcp(url: string, homeDir: string): CliRecipe {
  return {
    id: "codex-acp",
    version: version("codex-acp"),
    env: { CODEX_HOME: join(homeDir, "codex-home"), FAKE_LLM_API_KEY: FAKE_API_KEY },
    // workspace-write needs a system bwrap codex-acp does not bundle (real-clis.md §4).
    files: [{ path: "codex-home/config.toml", content: codexConfig(url, "danger-full-access") }],
    binPath: modules("@zed-industries", "codex-acp-linux-x64", "bin", "codex-acp"),
    entryArgs: [],
    extraArgs: ["-c", 'sandbox_mode="danger-full-access"'],
  };
}

/** opencode/kilo provider config (OPENCODE_CONFIG_CONTENT / KILO_CONFIG_CONTENT). */
export function opencodeConfigContent(url: string): string {
  return JSON.stringify({
    autoupdate: false,
    share: "disabled",
    model: "fakellm/fake-model",
    small_model: "fakellm/fake-model-mini",
    permission: { edit: "allow", bash: "allow", webfetch: "deny" },
    provider: {
      fakellm: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake LLM",
        options: { baseURL: `${url}/v1`, apiKey: FAKE_API_KEY },
        models: {
          "fake-model": { name: "Fake Model", tool_call: true, reasoning: true, limit: { context: 128000, output: 8192 } },
          "fake-model-mini": { name: "Fake Mini", limit: { context: 128000, output: 4096 } },
        },
      },
    },
  });
}

const OPENCODE_SWITCHES = ["AUTOUPDATE", "MODELS_FETCH", "LSP_DOWNLOAD", "DEFAULT_PLUGINS", "SHARE", "CLAUDE_CODE", "EXTERNAL_SKILLS"];

function opencode(url: string): CliRecipe {
  const env: Record<string, string> = { OPENCODE_CONFIG_CONTENT: opencodeConfigContent(url) };
  for (const name of OPENCODE_SWITCHES) env[`OPENCODE_DISABLE_${name}`] = "1";
  return {
    id: "opencode",
    version: version("opencode"),
    env,
    files: [],
    binPath: modules("opencode-ai", "bin", "opencode.exe"),
    entryArgs: [],
    extraArgs: [],
  };
}

function kilo(url: string): CliRecipe {
  const env: Record<string, string> = { KILO_CONFIG_CONTENT: opencodeConfigContent(url), KILO_TELEMETRY_LEVEL: "off" };
  for (const name of [...OPENCODE_SWITCHES, "SESSION_INGEST", "PRESENCE", "CODEBASE_INDEXING"]) env[`KILO_DISABLE_${name}`] = "1";
  return {
    id: "kilo",
    version: version("kilo"),
    env,
    files: [],
    binPath: modules("@kilocode", "cli-linux-x64", "bin", "kilo"),
    entryArgs: [],
    extraArgs: [],
  };
}

function pi(url: string, homeDir: string): CliRecipe {
  const models = {
    providers: {
      fakellm: {
        baseUrl: `${url}/v1`,
        api: "openai-completions",
        apiKey: FAKE_API_KEY,
        models: [
          { id: "fake-model", reasoning: true, contextWindow: 128000, maxTokens: 8192 },
          { id: "fake-model-responses", api: "openai-responses", reasoning: true },
        ],
      },
    },
  };
  return {
    id: "pi",
    version: version("pi"),
    env: { PI_CODING_AGENT_DIR: join(homeDir, "agent"), PI_OFFLINE: "1", PI_TELEMETRY: "0" },
    files: [{ path: "agent/models.json", content: json(models) }],
    binPath: NODE,
    entryArgs: [modules("@mariozechner", "pi-coding-agent", "dist", "cli.js")],
    extraArgs: ["--provider", "fakellm", "--model", "fake-model"],
  };
}

function qwen(url: string): CliRecipe {
  const settings = {
    security: { auth: { selectedType: "openai" } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    model: { name: "fake-model", generationConfig: { maxRetries: 1, retryInitialDelayMs: 500, retryMaxDelayMs: 1000 } },
  };
  return {
    id: "qwen",
    version: version("qwen"),
    env: {
      OPENAI_BASE_URL: `${url}/v1`,
      OPENAI_API_KEY: FAKE_API_KEY,
      OPENAI_MODEL: "fake-model",
      QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
    },
    files: [{ path: ".qwen/settings.json", content: json(settings) }],
    // cli-entry.js spawnSyncs this; its worker survives SIGTERM to the wrapper (real-clis.md §8).
    binPath: NODE,
    entryArgs: ["--expose-gc", modules("@qwen-code", "qwen-code", "cli.js")],
    extraArgs: ["--auth-type", "openai"],
  };
}

function claudeCodeAcp(url: string): CliRecipe {
  return {
    ...claude(url),
    id: "claude-code-acp",
    version: version("claude-code-acp"),
    binPath: NODE,
    entryArgs: [modules("@zed-industries", "claude-code-acp", "dist", "index.js")],
  };
}

function copilot(url: string): CliRecipe {
  return {
    id: "copilot",
    version: version("copilot"),
    env: {
      COPILOT_OFFLINE: "true",
      COPILOT_AUTO_UPDATE: "false",
      COPILOT_PROVIDER_TYPE: "anthropic",
      COPILOT_PROVIDER_BASE_URL: url,
      COPILOT_PROVIDER_API_KEY: FAKE_API_KEY,
      COPILOT_MODEL: "claude-sonnet-4.5",
    },
    files: [],
    binPath: modules("@github", "copilot-linux-x64", "copilot"),
    entryArgs: [],
    extraArgs: ["--no-auto-update", "--disable-client-telemetry"],
  };
}

/** The recipe for one CLI. `fakeServerUrl` has no trailing slash; `homeDir` is that CLI's fresh HOME. */
export function recipeFor(id: RealCliId, fakeServerUrl: string, homeDir: string): CliRecipe {
  const url = fakeServerUrl.replace(/\/+$/, "");
  switch (id) {
    case "claude":
      return claude(url);
    case "codex":
      return codex(url, homeDir);
    case "codex-acp":
      return codexAcp(url, homeDir);
    case "opencode":
      return opencode(url);
    case "kilo":
      return kilo(url);
    case "pi":
      return pi(url, homeDir);
    case "qwen":
      return qwen(url);
    case "claude-code-acp":
      return claudeCodeAcp(url);
    case "copilot":
      return copilot(url);
  }
}
