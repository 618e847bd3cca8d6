/** User preferences the UI and CLI share, persisted in od.db. */
import { z } from "./zod.ts";
import { PermissionMode } from "./approvals.ts";
import { ProbeTimeouts } from "./probe-timeouts.ts";

/** An environment variable name as a shell accepts it. */
export const EnvKey = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a valid environment variable name");

export const AgentModelChoice = z.strictObject({
  model: z.string().min(1).optional(),
  reasoning: z.string().min(1).optional(),
});

/** A bounded wait: at least a second (a person has to read the question), at most a day. */
const ApprovalTimeoutMs = z.number().int().min(1000).max(24 * 60 * 60_000);

export const Theme = z.enum(["light", "dark", "system"]);

export const AppConfig = z.strictObject({
  /** The agent the picker last chose; `null` clears it. */
  agentId: z.string().min(1).nullable().optional(),
  /** Default model/reasoning per agent id. */
  agentModels: z.record(z.string(), AgentModelChoice).optional(),
  /** Extra environment per agent id; reaches only that agent's child process. */
  agentCliEnv: z.record(z.string(), z.record(EnvKey, z.string())).optional(),
  /**
   * Extra environment per machine (`ssh://[user@]host[:port]`, `docker://CONTAINER`): every probe and agent there gets
   * it, and od reads its own settings there from it (`OD_CODEX_SANDBOX`); an agent's `agentCliEnv` wins over it.
   */
  machineEnv: z.record(z.string(), z.record(EnvKey, z.string())).optional(),
  /**
   * Detection's probe limits per machine (same keys as `machineEnv`, `local` for this one): a slow host or container
   * gets longer ones without changing them anywhere else. A local profile's own limits still win for its agent.
   */
  machineProbeTimeouts: z.record(z.string(), ProbeTimeouts).optional(),
  theme: Theme.optional(),
  /** A run's permission mode when its request names none and its project has no default, per agent id. */
  agentPermissionModes: z.record(z.string(), PermissionMode).optional(),
  /** A run's permission mode when its request names none, per project id (wins over the agent's). */
  projectPermissionModes: z.record(z.string(), PermissionMode).optional(),
  /** How long an unanswered approval request waits before it is denied (default 10 minutes). */
  approvalTimeoutMs: ApprovalTimeoutMs.optional(),
});
export type AppConfig = z.infer<typeof AppConfig>;

/**
 * A `PUT /api/app-config` body: any subset of AppConfig. Per-agent maps merge by agent id; an agent set to
 * `null` is removed from that map.
 */
export const AppConfigPatch = z.strictObject({
  agentId: AppConfig.shape.agentId,
  agentModels: z.record(z.string(), AgentModelChoice.nullable()).optional(),
  agentCliEnv: z.record(z.string(), z.record(EnvKey, z.string()).nullable()).optional(),
  machineEnv: z.record(z.string(), z.record(EnvKey, z.string()).nullable()).optional(),
  machineProbeTimeouts: z.record(z.string(), ProbeTimeouts.nullable()).optional(),
  theme: Theme.optional(),
  agentPermissionModes: z.record(z.string(), PermissionMode.nullable()).optional(),
  projectPermissionModes: z.record(z.string(), PermissionMode.nullable()).optional(),
  /** `null` goes back to the default. */
  approvalTimeoutMs: ApprovalTimeoutMs.nullable().optional(),
});
export type AppConfigPatch = z.infer<typeof AppConfigPatch>;

export const AppConfigResponse = z.object({ config: AppConfig });

