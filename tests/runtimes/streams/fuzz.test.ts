/**
 * Every parser (iterated from PARSER_VARIANTS, so a new one is fuzzed automatically) gets truncated, shuffled,
 * binary and oversized input. It must not throw, every event must validate, and output must stay bounded.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { AgentEvent } from "../../../server/contracts/events.ts";
import { createStreamParser, PARSER_VARIANTS, takesTextChunks } from "../../../server/runtimes/streams/index.ts";
import { readStreamEvents } from "../../../server/runtimes/streams/read-events.ts";
import { collectAll } from "../../support/stream-chunks.ts";
import { listFixtures } from "./golden.ts";

/** Deterministic PRNG so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const corpusLines = listFixtures().flatMap((f) => readFileSync(f.file, "utf8").split("\n").filter((l) => l !== ""));

function mutations(seed: number): string[][] {
  const rand = rng(seed);
  const pick = () => corpusLines[Math.floor(rand() * corpusLines.length)] ?? "{}";
  const shuffled = Array.from({ length: 80 }, pick);
  const truncated = Array.from({ length: 80 }, () => {
    const line = pick();
    return line.slice(0, Math.floor(rand() * line.length));
  });
  const binary = Array.from({ length: 40 }, () => String.fromCharCode(...Array.from({ length: 64 }, () => Math.floor(rand() * 0xffff))));
  const structural = [
    "{}",
    "[]",
    "null",
    '"str"',
    "42",
    '{"type":null}',
    '{"type":"assistant","message":null}',
    '{"type":"assistant","message":{"content":[null,1,{"type":"tool_use"}]}}',
    '{"type":"stream_event","event":{"type":"content_block_delta","index":"x","delta":{"type":"input_json_delta","partial_json":5}}}',
    '{"type":"stream_event","event":{"type":"content_block_stop","index":99}}',
    '{"type":"item.completed","item":{"type":"file_change","changes":[null,{"path":7}]}}',
    '{"type":"item.completed","item":{"type":"command_execution","command":{"a":1}}}',
    '{"type":"tool_use","part":{"state":{"status":"completed","input":null,"output":{"x":1}}}}',
    '{"type":"tool.execution_complete","data":{"result":{"content":[{"type":"text"}]}}}',
    '{"type":"tool_call","subtype":"completed","tool_call":{"function":{"arguments":"{not json"}}}',
    '{"type":"result","is_error":true,"errors":[null,{"a":1}]}',
    '{"type":"user","message":{"content":[{"tool_use_id":"x","content":{"deep":[1,2]}}]}}',
    '{"type":"system","subtype":"init","model":5}',
    '{"__proto__":{"polluted":true},"type":"assistant"}',
    `{"type":"text","part":{"text":"${"a".repeat(100_000)}"}}`,
  ];
  return [shuffled, truncated, binary, structural];
}

describe("fuzz", () => {
  for (const variant of PARSER_VARIANTS) {
    const label = `${variant.streamFormat}${variant.eventParser ? `/${variant.eventParser}` : ""}`;

    test(`${label}: random lines never throw, always validate, stay bounded`, () => {
      for (let seed = 1; seed <= 5; seed++) {
        for (const lines of mutations(seed)) {
          const parser = createStreamParser(variant.streamFormat, variant.eventParser, { cwd: "/project" });
          const events = [...lines.flatMap((line) => parser.push(line)), ...parser.end()];
          for (const event of events) {
            const parsed = AgentEvent.safeParse(event);
            if (!parsed.success) throw new Error(`${label}: invalid ${JSON.stringify(event).slice(0, 200)}`);
          }
          const inputBytes = lines.reduce((n, l) => n + l.length, 0);
          const outputBytes = JSON.stringify(events).length;
          expect(outputBytes).toBeLessThanOrEqual(inputBytes * 8 + 4096);
        }
      }
    });

    test(`${label}: raw bytes through the reader (binary, oversized, split anywhere)`, async () => {
      const rand = rng(99);
      const bytes = new Uint8Array(200_000).map(() => Math.floor(rand() * 256));
      bytes.fill(0x7b, 1000, 60_000); // a long run without newline
      async function* chunks() {
        for (let i = 0; i < bytes.length; ) {
          const size = 1 + Math.floor(rand() * 5000);
          yield bytes.subarray(i, i + size);
          i += size;
        }
      }
      const events = await collectAll(readStreamEvents(chunks(), variant.streamFormat, variant.eventParser, { cwd: "/p" }, { maxLineBytes: 4096 }));
      for (const event of events) expect(AgentEvent.safeParse(event).success).toBe(true);
      if (!takesTextChunks(variant.streamFormat)) expect(events.some((e) => e.type === "error" && e.code === "LINE_TOO_LONG")).toBe(true);
      expect(JSON.stringify(events).length).toBeLessThanOrEqual(bytes.length * 8 + 4096);
    });
  }

  test("an unknown eventParser degrades to raw", () => {
    const parser = createStreamParser("json-event-stream", "nope", {});
    expect(parser.push('{"type":"x"}')).toEqual([{ type: "raw", line: '{"type":"x"}' }]);
    expect(createStreamParser("json-event-stream", undefined, {}).push("hi")).toEqual([{ type: "raw", line: "hi" }]);
  });

  test("raw lines are truncated", () => {
    const parser = createStreamParser("claude-stream-json", undefined, {});
    const [event] = parser.push("x".repeat(200_000));
    expect(event?.type).toBe("raw");
    expect(event?.type === "raw" && event.line.length).toBeLessThan(70_000);
  });
});
