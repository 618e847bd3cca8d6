/** pi rpc transport entry points. */
export { startPiRpcTransport, PI_AUTO_RETRY_GRACE_MS } from "./session.ts";
export { changedSessionFile, snapshotSessionDir, type SessionFileStat } from "./session-file.ts";
export { loadPiImages, PI_MAX_IMAGES, PI_MAX_IMAGE_BYTES } from "./images.ts";
