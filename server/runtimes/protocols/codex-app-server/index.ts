/** codex app-server transport entry points. */
export { startCodexAppServerTransport, PATCH_STREAMING_FEATURE } from "./session.ts";
export { serverVersion, supportsPatchStreaming, PATCH_STREAMING_MIN_VERSION } from "./version.ts";
export { diffStats } from "./items.ts";
