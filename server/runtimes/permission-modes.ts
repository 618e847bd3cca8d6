/**
 * Which permission modes a def can honour: `ask` and `read-only` need a headless channel on which the CLI asks
 * before it acts and od answers (a line CLI's `approvalChannel`, or a protocol transport that forwards its
 * permission requests); without one, only `bypass`.
 */
import type { PermissionMode } from "../contracts/approvals.ts";
import { resolveDefTransport, type EnvMap, type RuntimeAgentDef } from "./types.ts";

/**
 * Protocol transports that forward their agent's permission requests to the run (`TransportOptions.askApproval`);
 * pi's through od's own permission extension (defs/pi-permissions.ts).
 */
const ASKING_PROTOCOLS: ReadonlySet<string> = new Set(["acp-json-rpc", "codex-app-server", "pi-rpc"]);

const ALL_MODES: PermissionMode[] = ["bypass", "ask", "read-only"];

export function permissionModesOf(def: RuntimeAgentDef, env: EnvMap): PermissionMode[] {
  if (def.approvalChannel) return [...ALL_MODES];
  if (def.readOnlyByItself) return ["bypass", "read-only"];
  let format: string;
  try {
    // The transport an ask run would use (copilot asks over ACP, and streams JSON otherwise).
    format = resolveDefTransport(def, env, "ask").streamFormat;
  } catch {
    return ["bypass"];
  }
  return ASKING_PROTOCOLS.has(format) ? [...ALL_MODES] : ["bypass"];
}
