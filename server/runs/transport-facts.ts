import type { TransportDefFacts } from "../runtimes/protocols/types.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";

/** The def facts a protocol transport reads, copied from the def so transports do not depend on the catalog. */
export function transportFacts(def: RuntimeAgentDef): TransportDefFacts {
  return {
    id: def.id,
    ...(def.acpMcpEnvFormat ? { acpMcpEnvFormat: def.acpMcpEnvFormat } : {}),
    ...(def.acpStdioMcpRemovedInVersion ? { acpStdioMcpRemovedInVersion: def.acpStdioMcpRemovedInVersion } : {}),
    ...(def.resumesSessionViaAcpLoad ? { resumesSessionViaAcpLoad: true } : {}),
    ...(def.acpTurnEndCompletesPrompt ? { acpTurnEndCompletesPrompt: true } : {}),
    ...(def.acpImagePathFormat ? { acpImagePathFormat: def.acpImagePathFormat } : {}),
    ...(def.piRpcSessionDir ? { piRpcSessionDir: def.piRpcSessionDir } : {}),
  };
}
