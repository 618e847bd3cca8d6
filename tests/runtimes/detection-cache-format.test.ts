/**
 * agents-cache.json entries are read back without a schema check when their format is this od's
 * (server/runtimes/detection-cache.ts). That is only sound while DETECTION_CACHE_FORMAT names one entry shape, so the
 * shape is pinned here: changing LastGoodDetection (or the agent list's schemas inside it) fails this test until the
 * format number goes up and the pinned schema is written again (OD_PIN_DETECTION_CACHE_FORMAT=1 writes it).
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { LastGoodDetection } from "../../server/contracts/agent-detection.ts";
import { DETECTION_CACHE_FORMAT } from "../../server/runtimes/detection-cache.ts";

const pinned = join(import.meta.dir, "..", "fixtures", "detection-cache", `format-${DETECTION_CACHE_FORMAT}.schema.json`);

test(`the cache entry shape is the one format ${DETECTION_CACHE_FORMAT} stands for`, () => {
  const shape = z.toJSONSchema(LastGoodDetection);
  if (process.env.OD_PIN_DETECTION_CACHE_FORMAT === "1") writeFileSync(pinned, `${JSON.stringify(shape, null, 2)}\n`);
  expect(existsSync(pinned), `no pinned shape for format ${DETECTION_CACHE_FORMAT}: raise the format only with a new pinned shape`).toBe(true);
  expect(shape, "LastGoodDetection changed: raise DETECTION_CACHE_FORMAT and pin the new shape").toEqual(JSON.parse(readFileSync(pinned, "utf8")));
});
