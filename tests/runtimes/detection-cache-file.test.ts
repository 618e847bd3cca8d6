/**
 * agents-cache.json read entry by entry: an entry that is not intact (edited, torn) or of another format is absent
 * and costs no other.
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseAgentInfo } from "../../server/runtimes/detection.ts";
import { DETECTION_CACHE_FORMAT, FileDetectionCache } from "../../server/runtimes/detection-cache.ts";
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
  writeFileSync(file, JSON.stringify({ ...written, agents: { ...written.agents, codex: { info: "not an agent" } } }));

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

test("an edited entry is absent; the next write keeps only the intact ones", () => {
  using dir = tempDir("od-cache-file-");
  const file = join(dir.path, "agents-cache.json");
  new FileDetectionCache(file).remember(availableClaude(), 1000);
  new FileDetectionCache(file).remember({ ...availableClaude(), info: { ...availableClaude().info, id: "codex" } }, 1000);
  const written = JSON.parse(readFileSync(file, "utf8"));
  // Valid JSON and the right shape, but not the text od sealed: a hand edit is not trusted.
  written.agents.claude.entry = written.agents.claude.entry.replace('"trust":true', '"trust":false');
  writeFileSync(file, JSON.stringify(written));

  const cache = new FileDetectionCache(file);
  expect(cache.get("claude")).toBeUndefined();
  expect(cache.get("codex")).toMatchObject({ info: { id: "codex" }, at: 1000 });
  cache.remember({ ...availableClaude(), info: { ...availableClaude().info, id: "pi" } }, 2000);
  expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).agents).sort()).toEqual(["codex", "pi"]);
});

test("a file of another entry format, or from before formats, is an empty cache", () => {
  using dir = tempDir("od-cache-file-");
  const file = join(dir.path, "agents-cache.json");
  new FileDetectionCache(file).remember(availableClaude(), 1000);
  const written = JSON.parse(readFileSync(file, "utf8"));
  expect(written.format).toBe(DETECTION_CACHE_FORMAT);
  writeFileSync(file, JSON.stringify({ ...written, format: DETECTION_CACHE_FORMAT + 1 }));
  expect(new FileDetectionCache(file).get("claude")).toBeUndefined();
  writeFileSync(file, JSON.stringify({ agents: { claude: JSON.parse(written.agents.claude.entry) } }));
  expect(new FileDetectionCache(file).get("claude")).toBeUndefined();
});
