import { Buffer } from "node:buffer";

/** Sortable, unguessable ids: `<prefix>_<time base36><10 random base32 chars>`. */
export function newId(prefix: string): string {
  const random = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("base64url").replace(/[-_]/g, "x").slice(0, 10).toLowerCase();
  return `${prefix}_${Date.now().toString(36)}${random}`;
}
