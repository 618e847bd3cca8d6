/**
 * node:crypto loaded on first use. Importing it costs ~10 ms of start-up in the compiled binary, and only hashing
 * needs it (ids, tokens and UUIDs come from the web-standard `crypto` global), so no start-up path pays for it.
 */
import type * as NodeCrypto from "node:crypto";

let loaded: typeof NodeCrypto | undefined;

/** A SHA-256 hasher (node:crypto's `createHash("sha256")`). */
export function sha256(): NodeCrypto.Hash {
  loaded ??= process.getBuiltinModule("node:crypto");
  return loaded.createHash("sha256");
}
