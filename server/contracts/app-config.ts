/** User preferences the UI and CLI share, persisted in od.db. */
import { z } from "zod";

/** An environment variable name as a shell accepts it. */
export const EnvKey = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a valid environment variable name");

export const AgentModelChoice = z.strictObject({
  model: z.string().min(1).optional(),
  reasoning: z.string().min(1).optional(),
});

export const Theme = z.enum(["light", "dark", "system"]);

export const AppConfig = z.strictObject({
  /** The agent the picker last chose; `null` clears it. */
  agentId: z.string().min(1).nullable().optional(),
  /** Default model/reasoning per agent id. */
  agentModels: z.record(z.string(), AgentModelChoice).optional(),
  /** Extra environment per agent id; reaches only that agent's child process. */
  agentCliEnv: z.record(z.string(), z.record(EnvKey, z.string())).optional(),
  theme: Theme.optional(),
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
  theme: Theme.optional(),
});
export type AppConfigPatch = z.infer<typeof AppConfigPatch>;

export const AppConfigResponse = z.object({ config: AppConfig });

/** Apply a validated patch to a config (pure). */
export function applyAppConfigPatch(config: AppConfig, patch: AppConfigPatch): AppConfig {
  const next: AppConfig = { ...config };
  if (patch.agentId !== undefined) next.agentId = patch.agentId;
  if (patch.theme !== undefined) next.theme = patch.theme;
  if (patch.agentModels) next.agentModels = mergeByAgent(config.agentModels, patch.agentModels);
  if (patch.agentCliEnv) next.agentCliEnv = mergeByAgent(config.agentCliEnv, patch.agentCliEnv);
  return next;
}

function mergeByAgent<T>(current: Record<string, T> | undefined, patch: Record<string, T | null>): Record<string, T> {
  const merged: Record<string, T> = { ...current };
  for (const [agentId, value] of Object.entries(patch)) {
    if (value === null) delete merged[agentId];
    else merged[agentId] = value;
  }
  return merged;
}
