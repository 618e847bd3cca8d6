/** od's SHA-256 (Bun's own hasher under Bun) gives node:crypto's digests: stored hashes stay valid across runtimes. */
import { createHash } from "node:crypto";
import { expect, test } from "bun:test";
import { sha256 } from "../../server/node-crypto.ts";

test("sha256() digests as node:crypto's createHash('sha256') does, for text, UTF-8 text, bytes and chained updates", () => {
  const bytes = new Uint8Array([0, 1, 2, 250, 255]);
  expect(sha256().update("/projects/deck").digest("hex")).toBe(createHash("sha256").update("/projects/deck").digest("hex"));
  expect(sha256().update("ünïcødé ✓", "utf8").digest("hex")).toBe(createHash("sha256").update("ünïcødé ✓", "utf8").digest("hex"));
  expect(sha256().update(bytes).digest("hex")).toBe(createHash("sha256").update(bytes).digest("hex"));
  expect(sha256().update("a").update("\0").update(bytes).digest("hex")).toBe(createHash("sha256").update("a").update("\0").update(bytes).digest("hex"));
});
