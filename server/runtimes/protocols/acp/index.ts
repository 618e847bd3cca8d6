/** ACP transport entry points. */
export { startAcpTransport, ACP_STAGE_TIMEOUT_MS } from "./session.ts";
export { discoverAcpModels, type DiscoverAcpModelsOptions } from "./discover-models.ts";
export type { AcpModelChoice } from "./models.ts";
export { AMR_REFUSAL_CODES, CONTINUATION_INCOMPLETE_CODE } from "./amr-continuation.ts";
