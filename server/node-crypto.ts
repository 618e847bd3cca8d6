/**
 * SHA-256, without loading node:crypto where the runtime hashes natively. Importing node:crypto costs ~10 ms of
 * start-up in the compiled binary, and loading it when first needed still cost a run that staged a skill ~1.5 ms
 * before its agent started (it names the staged folder by a hash of the skill's path); under Bun its own hasher gives
 * the same digests with nothing to load. Elsewhere (Deno) node:crypto is loaded on first use. Ids, tokens and UUIDs
 * come from the web-standard `crypto` global.
 */
import type * as NodeCrypto from "node:crypto";

/** What od asks of a hasher: node:crypto's Hash and Bun's CryptoHasher both are one. */
export type Sha256 = {
  update(data: string | Uint8Array, encoding?: "utf8"): Sha256;
  digest(encoding: "hex"): string;
};

type BunHasher = new (algorithm: "sha256") => Sha256;

let nodeCrypto: typeof NodeCrypto | undefined;

/** A SHA-256 hasher. */
export function sha256(): Sha256 {
  const BunCryptoHasher = (globalThis as { Bun?: { CryptoHasher?: BunHasher } }).Bun?.CryptoHasher;
  if (BunCryptoHasher) return new BunCryptoHasher("sha256");
  nodeCrypto ??= process.getBuiltinModule("node:crypto");
  return nodeCrypto.createHash("sha256");
}
