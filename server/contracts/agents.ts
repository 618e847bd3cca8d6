/**
 * Wire shapes of the agent catalog: what `GET /api/agents` (and its SSE form) returns for each runtime def,
 * the typed diagnostics with their fix actions, and the model options the picker renders.
 */
import { z } from "./zod.ts";
import { PermissionMode } from "./approvals.ts";

/** A nested choice (reasoning effort, service tier) attached to a model or an agent. */
export const RuntimeChoice = z.object({
  id: z.string(),
  label: z.string(),
  /** This choice is the CLI's own default. */
  default: z.boolean().optional(),
});
export type RuntimeChoice = z.infer<typeof RuntimeChoice>;

/** One model a runtime offers; `{ id: "default" }` means "pass no model flag, let the CLI's config decide". */
export const RuntimeModelOption = z.object({
  id: z.string(),
  label: z.string(),
  enabled: z.boolean().optional(),
  default: z.boolean().optional(),
  inputPriceUsdPerMillion: z.number().optional(),
  outputPriceUsdPerMillion: z.number().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Extra speed tiers the CLI advertises for this model (codex `fast`). */
  additionalSpeedTiers: z.array(z.string()).optional(),
  serviceTierOptions: z.array(RuntimeChoice).optional(),
  /** Per-model reasoning choices; when present they replace the agent-wide ones for this model. */
  reasoningOptions: z.array(RuntimeChoice).optional(),
  /** Reasoning levels the CLI says this model accepts (codex `debug models`). */
  supportedReasoningLevels: z.array(z.string()).optional(),
});
export type RuntimeModelOption = z.infer<typeof RuntimeModelOption>;

/** Why an agent is not (fully) usable. */
export const AgentDiagnosticReason = z.enum([
  /** No executable found (override, PATH, toolchain dirs, fallback names). */
  "not-installed",
  /** An executable exists but the OS cannot run it (EACCES, ENOTDIR, exit 126/127, broken shim). */
  "not-invocable",
  /** It runs, but its version is outside the versions we tested (or could not be read when one is required). */
  "version-untested",
  /** The auth probe says nobody is logged in (or could not tell). */
  "auth-missing",
  /** The CLI is present but needs a one-time setup step (DSH profile). */
  "setup-required",
  /** A probe did not answer in time (or the pass stopped waiting for this CLI; see state `probing`). */
  "probe-timeout",
  /** A user-defined local profile entry was rejected. */
  "profile-invalid",
  /** Detection on another machine or in a container (`?location=`) could not reach it: nothing was probed. */
  "remote-unreachable",
  /** The agent's own sandbox cannot start where it runs (no user namespaces in a container, no Landlock): runs would fail. */
  "sandbox-unavailable",
]);
export type AgentDiagnosticReason = z.infer<typeof AgentDiagnosticReason>;

/** Something the UI can offer as a button next to a diagnostic. */
export const AgentFixAction = z.discriminatedUnion("kind", [
  /** Open the def's `installUrl`. */
  z.object({ kind: z.literal("openInstall") }),
  /** Open the def's `docsUrl`. */
  z.object({ kind: z.literal("openDocs") }),
  /** Show/copy an exact shell command (install or login). */
  z.object({ kind: z.literal("copyCommand"), command: z.string() }),
  /** Re-run detection. */
  z.object({ kind: z.literal("rescan") }),
  /** Run od's own setup flow for this agent (DSH companion install). */
  z.object({ kind: z.literal("setup") }),
]);
export type AgentFixAction = z.infer<typeof AgentFixAction>;

/** A typed finding of detection, rendered with its fix actions. */
export const AgentDiagnostic = z.object({
  reason: AgentDiagnosticReason,
  severity: z.enum(["error", "warning", "info"]),
  message: z.string(),
  detail: z.string().optional(),
  /** Directories searched for the executable (capped), for `not-installed`. */
  searchedDirs: z.array(z.string()).optional(),
  fixActions: z.array(AgentFixAction),
});
export type AgentDiagnostic = z.infer<typeof AgentDiagnostic>;

/** Milliseconds each probe took; absent when the probe did not run. */
export const AgentProbeTimings = z.object({
  version: z.number().optional(),
  help: z.number().optional(),
  models: z.number().optional(),
  auth: z.number().optional(),
  compatibility: z.number().optional(),
  sandbox: z.number().optional(),
});
export type AgentProbeTimings = z.infer<typeof AgentProbeTimings>;

/** The detected state of one runtime def. */
export const AgentInfo = z.object({
  id: z.string(),
  name: z.string(),
  /** Executable name the def probes for. */
  bin: z.string(),
  /** True when a run can be started (state `available`). */
  available: z.boolean(),
  /** `probing`: the pass gave up waiting for this CLI's probes; they go on and its real result follows. */
  state: z.enum(["available", "setup-required", "unavailable", "probing"]),
  /** Resolved executable path. */
  path: z.string().optional(),
  /** First line of the version probe; null when the CLI ran but did not report one. */
  version: z.string().nullable(),
  authStatus: z.enum(["ok", "missing", "unknown"]).optional(),
  authMessage: z.string().optional(),
  diagnostics: z.array(AgentDiagnostic),
  models: z.array(RuntimeModelOption),
  modelsSource: z.enum(["live", "fallback"]),
  reasoningOptions: z.array(RuntimeChoice).optional(),
  /** Wire format of the active transport (e.g. `claude-stream-json`, `acp-json-rpc`, `codex-app-server`). */
  streamFormat: z.string(),
  eventParser: z.string().optional(),
  supportsImagePaths: z.boolean().optional(),
  externalMcpInjection: z.string().optional(),
  /** False hides the free-text custom model input. */
  supportsCustomModel: z.boolean().optional(),
  installUrl: z.string().optional(),
  docsUrl: z.string().optional(),
  /** Flags found in the CLI's help output (capability key → present). */
  capabilities: z.record(z.string(), z.boolean()),
  /**
   * The permission modes a run of this agent can have, from its transport and the flags of the installed version
   * (absent on entries detected before modes existed: `bypass` only).
   */
  permissionModes: z.array(PermissionMode).optional(),
  probeMs: AgentProbeTimings,
});
export type AgentInfo = z.infer<typeof AgentInfo>;

/** Body of `GET /api/agents` and `POST /api/agents/rescan`. */
export const AgentListResponse = z.object({
  agents: z.array(AgentInfo),
  /** Local-profile entries that were skipped (present only when there are some). */
  profileDiagnostics: z.array(AgentDiagnostic).optional(),
});
export type AgentListResponse = z.infer<typeof AgentListResponse>;

/** `POST /api/agents/rescan` (body optional): with `?stream=1`, a pass that finished within `maxAgeMs` is replayed. */
export const RescanRequest = z.strictObject({ maxAgeMs: z.number().int().min(0).optional() });
