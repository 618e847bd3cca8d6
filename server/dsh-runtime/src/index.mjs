/**
 * @open-design/dsh-runtime: the open-design DeepSeek Harness profile. Types live in index.d.mts.
 */
export { startup, USAGE } from "./startup.mjs";
export { handshakeFrame, parseHostCommand, protocolErrorFrame, ProfileErrorCode, V } from "./protocol.mjs";
export { CAPABILITIES, COMPATIBILITY_GENERATION, PLUGIN_VERSION, PROTOCOL_VERSION, RUNTIME_NAME } from "./compatibility.mjs";
export { readLines } from "./lines.mjs";
