/**
 * The runtime contract: one `RuntimeAgentDef` object literal per CLI says how to find it, probe it, build its argv
 * and read its output. Every field is data or a pure function of its inputs; the engine (detection, launch,
 * invocation, parsers) does the work. Nothing here spawns a process.
 */
import type { RuntimeChoice, RuntimeModelOption } from "../contracts/agents.ts";
import type { ProbeTimeouts } from "../contracts/probe-timeouts.ts";
import type { PermissionMode } from "../contracts/approvals.ts";

export type { RuntimeChoice, RuntimeModelOption };

/** Environment as a plain record (process.env shape). */
export type EnvMap = Record<string, string | undefined>;

/** Per-run choices the user made in the picker. */
export type RuntimeBuildOptions = {
  /** Model id; `"default"`, null or absent → no model flag. */
  model?: string | null;
  /** Reasoning / effort / thinking level id; `"default"` or absent → no flag. */
  reasoning?: string | null;
  /** Service tier (codex `fast`). */
  serviceTier?: string | null;
  /**
   * `restricted` omits bypass-permission flags (used by connection tests); `ask` and `read-only` use the CLI's own
   * permission channel (a def that has none is never asked for them: the run is refused first); `bypass` or absent
   * passes the bypass flags.
   */
  permissionMode?: "restricted" | PermissionMode;
};

/** A file of a run's own: its name in the run's private folder, and its text. */
export type AgentFile = { name: string; content: string };

/** Facts about the current run and the installed CLI that arg builders may read. */
export type RuntimeContext = {
  /** Effective project folder (the child's cwd). */
  cwd?: string;
  /** Native session to continue (specify-style id we minted earlier, or one the CLI reported). */
  resumeSessionId?: string | null;
  /** Fresh id we mint for specify-style CLIs (`--session-id`). */
  newSessionId?: string;
  /** Where the engine wrote the composed prompt, for `promptViaFile` defs. */
  promptFilePath?: string;
  /** Where the run's `agentFile` is, in its private folder where the agent runs. */
  agentFilePath?: string;
  /** Staged skill folders (pi `--skill`). */
  skillDirs?: string[];
  /** Generated MCP config file for `claude-mcp-json` defs (`--mcp-config`); removed after the run. */
  mcpConfigPath?: string;
  /** Capability map from the help probe of the installed CLI (flag key → present). */
  capabilities?: Record<string, boolean>;
  /** Host platform; defaults to the current one when absent. */
  platform?: NodeJS.Platform;
  /** Daemon environment as seen by arg builders (sandbox overrides, WSL detection). */
  env?: EnvMap;
  /** Live models of the last detection pass (opencode variants). */
  liveModels?: RuntimeModelOption[];
  /** The conversation already has an assistant turn (continue-style CLIs). */
  hasPriorAssistantTurn?: boolean;
  /** Where a CLI that logs to a file should write (antigravity `--log-file`). */
  agentLogFilePath?: string;
  /** Settings file the engine prepared for CLIs that take the model from one (antigravity). */
  antigravitySettingsPath?: string;
  /** Ask the CLI to run without plugins (codex `--disable plugins`). */
  disablePlugins?: boolean;
  /** JSON of native sub-agent definitions (claude `--agents`). */
  nativeBuildPackageBindings?: string;
  /** Forward a child agent's text (claude `--forward-subagent-text`). */
  observeNativeChildBehavior?: boolean;
};

/** Builds the argv (after the executable) for one turn. Pure: same inputs, same array. */
export type BuildArgs = (
  prompt: string,
  imagePaths: string[],
  extraAllowedDirs?: string[],
  options?: RuntimeBuildOptions,
  runtimeContext?: RuntimeContext,
) => string[];

/** Output of a finished probe, as handed to a def's parse function. */
export type ProbeOutput = { stdout: string; stderr: string; exitCode: number | null };

/** Run another probe of the same executable; given to `fetchModels` so defs never spawn themselves. */
export type ProbeRun = (args: string[], options?: { timeoutMs?: number; maxBytes?: number }) => Promise<ProbeOutput | null>;

/** A model-list subcommand. */
export type RuntimeListModels = {
  args: string[];
  timeoutMs?: number;
  maxBytes?: number;
  /** Parse stdout; null or [] → use fallback models. Must not throw. */
  parse: (stdout: string) => RuntimeModelOption[] | null;
};

/** Tested versions; an off-policy parseable version is a warning, an unparseable one an error. */
export type RuntimeVersionPolicy = {
  supportedVersions: string[];
  /** No `g` flag (stateful `lastIndex`). */
  supportedVersionPattern?: RegExp;
  requireVersion: true;
  parse?: (raw: string) => string | null;
};

/** Side-effect-free handshake run after the version probe (DSH profile `--probe`). */
export type RuntimeCompatibilityProbe = {
  args: string[];
  timeoutMs?: number;
  /** Skip the probe (→ setup required) when running it would create state. */
  preflight?: (ctx: { env: EnvMap; fileExists: (path: string) => boolean }) => boolean;
  /** Returns the compatibility generation; throws or returns "" when incompatible. */
  parse: (stdout: string) => string;
};

/** How a def's stream is read: the parser format plus an optional named sub-parser. */
export type RuntimeTransport = { streamFormat: string; eventParser?: string };

/** The data spec of one CLI. See reference-daemon §1 for every field. */
export type RuntimeAgentDef = {
  /** Unique key, e.g. `claude`; the registry rejects duplicates. */
  id: string;
  name: string;
  /** Executable looked up on PATH. */
  bin: string;
  /** Alternative executable names tried in order when `bin` is absent. */
  fallbackBins?: string[];
  /** Env var naming an explicit executable; default `<ID>_BIN` (`cursor-agent` → `CURSOR_AGENT_BIN`). */
  binEnvVar?: string;
  versionArgs: string[];
  /** Override of the default version-probe timeout. */
  versionProbeTimeoutMs?: number;
  /** Per-probe limits that win over every default and over the def's own (a local profile's `probeTimeouts`). */
  probeTimeouts?: ProbeTimeouts;
  versionPolicy?: RuntimeVersionPolicy;
  /** Reduce the version line to the version (`GitHub Copilot CLI 1.0.102.` → `1.0.102`); null keeps the line. */
  parseVersion?: (raw: string) => string | null;
  compatibilityProbe?: RuntimeCompatibilityProbe;
  /**
   * Whether the agent's own sandbox can start where it runs: `args(settingsEnv)` runs a trivial command under it (null
   * when the settings give runs no sandbox); `optOut` is the setting that runs the agent without one.
   */
  sandboxProbe?: { args: (settingsEnv: EnvMap) => string[] | null; optOut: string };
  /** Help probe args; `capabilityFlags` maps a flag substring of its output to a capability key. */
  helpArgs?: string[];
  capabilityFlags?: Record<string, string>;
  /** Flags absent from `--help`, detected by probing `prefix + [flag, <bad value>]` and reading the rejection. */
  hiddenCapabilityFlags?: { probeArgsPrefix: string[]; flags: Record<string, string> };
  fallbackModels: RuntimeModelOption[];
  buildArgs: BuildArgs;
  /** Default transport's wire format, e.g. `claude-stream-json` | `acp-json-rpc` | `plain`. */
  streamFormat: string;
  /** Named sub-parser for `json-event-stream` (`codex`, `cursor-agent`, `opencode`). */
  eventParser?: string;
  /** Env-selected transport (codex `OD_CODEX_TRANSPORT`); absent → `streamFormat`/`eventParser`. */
  /** `mode`: a run's permission mode, for a def that asks on another transport (copilot: ACP in ask and read-only). */
  resolveTransport?: (env: EnvMap, mode?: PermissionMode) => RuntimeTransport;
  promptViaStdin?: boolean;
  promptViaFile?: boolean;
  promptInputFormat?: "text" | "stream-json";
  /**
   * A line CLI that can ask before it acts: `claude-control` prints `can_use_tool` control requests on stdout and
   * reads the answers on stdin (`--permission-prompt-tool stdio`). Its runs may then be `ask` or `read-only`.
   */
  approvalChannel?: "claude-control";
  /**
   * A file the agent is given for a run in `mode`, written to the run's private folder where it runs (its path is
   * `context.agentFilePath`): pi's permission extension, which asks od before each tool call that acts.
   */
  agentFile?: (mode: PermissionMode) => AgentFile | undefined;
  /**
   * The arguments that open the CLI's channel to ask on in an ask or read-only run (Claude's control protocol,
   * copilot's ACP server): nothing else in its argv may differ from a restricted run's.
   */
  approvalChannelArgs?: readonly string[];
  /**
   * The control channel speaks only after an SDK `initialize` control request (Qwen Code): its ask and read-only runs
   * read the prompt as stream-json, and od sends that request first.
   */
  initializesControl?: true;
  /**
   * Environment a run in `mode` adds for the agent (kilo's `KILO_PERMISSION` overlay): how a protocol agent that acts
   * without asking by default is made to ask, or to refuse, before it acts.
   */
  permissionEnv?: (mode: PermissionMode) => Record<string, string>;
  /**
   * `read-only` without a channel to ask on: the CLI refuses writes and commands by itself when `permissionEnv` says so
   * (OpenCode's permission overlay), so its runs may be `bypass` or `read-only`, never `ask`.
   */
  readOnlyByItself?: true;
  supportsImagePaths?: boolean;
  externalMcpInjection?: "claude-mcp-json" | "acp-merge" | "opencode-env-content" | "mimo-env-content";
  mcpDiscovery?: string;
  authProbe?: { args: string[]; timeoutMs?: number; classifierAgentId?: string };
  listModels?: RuntimeListModels;
  /** Programmatic discovery (several probes, retries); wins over `listModels`. */
  fetchModels?: (run: ProbeRun, env: EnvMap) => Promise<RuntimeModelOption[] | null>;
  /** Models come from an ACP handshake (`initialize` + `session/new`) with this timeout. */
  acpModelDiscovery?: { timeoutMs: number };
  reasoningOptions?: RuntimeChoice[];
  /** Static env added at spawn and probe time. */
  env?: Record<string, string>;
  /** Argv prompt budget (bytes); enables the prompt-too-large guards. */
  maxPromptArgBytes?: number;
  installUrl?: string;
  docsUrl?: string;
  /** Exact install command shown in the `not-installed` diagnostic. */
  installCommand?: string;
  /** Exact login command shown in the `auth-missing` diagnostic. */
  loginCommand?: string;
  supportsCustomModel?: boolean;
  resumesSessionViaCli?: boolean;
  resumesSessionViaProfileStdio?: boolean;
  capturesSessionIdFromStream?: boolean;
  piRpcSessionDir?: string;
  piRpcResumeViaProcessArgs?: boolean;
  resumesSessionViaAcpLoad?: boolean;
  /** Daemon env var supplying the model when the run's model is null/default (AMR `VELA_DEFAULT_MODEL`). */
  defaultModelEnvVar?: string;
  inactivityTimeoutMs?: number;
  firstOutputTimeoutMs?: number;
  acpTurnEndCompletesPrompt?: boolean;
  acpMcpEnvFormat?: "array" | "map";
  acpStdioMcpRemovedInVersion?: string;
  acpSessionIdIsDurable?: boolean;
  acpImagePathFormat?: "path" | "file-url";
  acpResourceMimePolicy?: "kilo";
  proxyEnvCompatibility?: "httpx";
  imageDelivery?: "native";
  /** Daemon env vars the child needs (documented, never copied into static env). */
  inheritedEnv?: string[];
  /** Set on local profiles: the shipped def this one extends and the model used when none is chosen. */
  localProfile?: { baseAgentId: string; sourceFile: string; defaultModel?: string };
};

/** A def resumes by passing a session id to the CLI (argv or profile stdio), not by replaying the transcript. */
export function runtimeResumesSessionById(def: RuntimeAgentDef): boolean {
  return Boolean(def.resumesSessionViaCli || def.resumesSessionViaProfileStdio);
}

/** The transport a def uses under this environment (and for a run in `mode`: absent, a bypass run's). */
export function resolveDefTransport(def: RuntimeAgentDef, env: EnvMap, mode?: PermissionMode): RuntimeTransport {
  if (def.resolveTransport) return def.resolveTransport(env, mode);
  return def.eventParser ? { streamFormat: def.streamFormat, eventParser: def.eventParser } : { streamFormat: def.streamFormat };
}
