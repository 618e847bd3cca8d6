/**
 * A run's permission mode: the request's, else its project's default, else its agent's, else `bypass`. A mode the
 * agent cannot honour is refused, whichever of those named it: never silently run with bypass.
 */
import type { PermissionMode } from "../contracts/approvals.ts";
import type { AppConfig } from "../contracts/app-config.ts";
import { OdError } from "../errors.ts";
import { permissionModesOf } from "../runtimes/permission-modes.ts";
import type { EnvMap, RuntimeAgentDef } from "../runtimes/types.ts";

export function resolveRunPermissionMode(
  def: RuntimeAgentDef,
  requested: PermissionMode | undefined,
  config: AppConfig,
  projectId: string,
  env: EnvMap,
): PermissionMode {
  const mode = requested ?? config.projectPermissionModes?.[projectId] ?? config.agentPermissionModes?.[def.id] ?? "bypass";
  const modes = permissionModesOf(def, env);
  if (!modes.includes(mode)) {
    const source = requested ? "" : " (the default for this project or agent)";
    throw new OdError("invalid", "PERMISSION_MODE_UNSUPPORTED", `${def.name} cannot run in '${mode}' mode${source}; its modes: ${modes.join(", ")}`);
  }
  return mode;
}
