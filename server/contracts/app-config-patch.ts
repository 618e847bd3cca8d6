/**
 * How a partial app-config update applies (per-agent maps merge by agent id; `null` removes an entry). Free of zod,
 * so the UI applies exactly the daemon's rule to its optimistic copy without bundling the schema library.
 */
import type { AppConfig, AppConfigPatch } from "./app-config.ts";

/** Apply a validated patch to a config (pure). */
export function applyAppConfigPatch(config: AppConfig, patch: AppConfigPatch): AppConfig {
  const next: AppConfig = { ...config };
  if (patch.agentId !== undefined) next.agentId = patch.agentId;
  if (patch.theme !== undefined) next.theme = patch.theme;
  if (patch.agentModels) next.agentModels = mergeByAgent(config.agentModels, patch.agentModels);
  if (patch.agentCliEnv) next.agentCliEnv = mergeByAgent(config.agentCliEnv, patch.agentCliEnv);
  if (patch.machineEnv) next.machineEnv = mergeByAgent(config.machineEnv, patch.machineEnv);
  if (patch.machineProbeTimeouts) next.machineProbeTimeouts = mergeByAgent(config.machineProbeTimeouts, patch.machineProbeTimeouts);
  if (patch.agentPermissionModes) next.agentPermissionModes = mergeByAgent(config.agentPermissionModes, patch.agentPermissionModes);
  if (patch.projectPermissionModes) next.projectPermissionModes = mergeByAgent(config.projectPermissionModes, patch.projectPermissionModes);
  if (patch.approvalTimeoutMs === null) delete next.approvalTimeoutMs;
  else if (patch.approvalTimeoutMs !== undefined) next.approvalTimeoutMs = patch.approvalTimeoutMs;
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
