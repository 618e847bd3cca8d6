/**
 * Golden tests: every transcript under tests/fixtures/<cli>/ (real recordings and `*.synthetic.jsonl`) is parsed as a
 * run would parse it and compared, as a whole event array, with the reviewed `<scenario>.events.json` next to it.
 * Regenerate with `node_modules/.bin/bun run scripts/update-golden.ts` and review the diff.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { AgentEvent } from "../../../server/contracts/events.ts";
import { FIXTURES_DIR, listFixtures, parseFixture } from "./golden.ts";

const fixtures = listFixtures();

test("fixtures exist for every line-oriented parser family", () => {
  const formats = new Set(fixtures.map((f) => `${f.streamFormat}/${f.eventParser ?? ""}`));
  for (const expected of ["claude-stream-json/", "json-event-stream/codex", "json-event-stream/opencode", "json-event-stream/cursor-agent", "copilot-stream-json/", "qoder-stream-json/"]) {
    expect(formats.has(expected)).toBe(true);
  }
});

describe("golden transcripts", () => {
  for (const fixture of fixtures) {
    const name = relative(FIXTURES_DIR, fixture.file);
    test(name, async () => {
      expect(existsSync(fixture.goldenFile)).toBe(true);
      const events = await parseFixture(fixture);
      for (const event of events) expect(AgentEvent.safeParse(event).success).toBe(true);
      expect(events).toEqual(JSON.parse(readFileSync(fixture.goldenFile, "utf8")));
    });
  }
});
