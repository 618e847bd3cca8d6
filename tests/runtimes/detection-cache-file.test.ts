/** agents-cache.json read entry by entry: an entry that does not validate is absent and costs no other. */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseAgentInfo } from "../../server/runtimes/detection.ts";
import { FileDetectionCache } from "../../server/runtimes/detection-cache.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { tempDir } from "../support/temp.ts";

function availableClaude() {
  const info = baseAgentInfo(getAgentDef("claude")!, {});
  return { info: { ...info, state: "available" as const, available: true }, capabilities: { trust: true }, liveModels: null };
}

test("a broken entry of one agent leaves the others readable, and is dropped on the next write", () => {
  using dir = tempDir("od-cache-file-");
  const file = join(dir.path, "agents-cache.json");
  new FileDetectionCache(file).remember(availableClaude(), 1000);
  const written = JSON.parse(readFileSync(file, "utf8"));
  writeFileSync(file, JSON.stringify({ agents: { ...written.agents, codex: { info: "not an agent" } } }));

  const cache = new FileDetectionCache(file);
  expect(cache.get("claude")).toMatchObject({ capabilities: { trust: true }, at: 1000 });
  expect(cache.get("codex")).toBeUndefined();

  cache.remember(availableClaude(), 2000);
  expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).agents)).toEqual(["claude"]);
});

test("a foreign file is an empty cache", () => {
  using dir = tempDir("od-cache-file-");
  const file = join(dir.path, "agents-cache.json");
  writeFileSync(file, "[1, 2]");
  expect(new FileDetectionCache(file).get("claude")).toBeUndefined();
});
