import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCommand } from "../../server/cli/parse-command.ts";
import type { CommandIO, ParsedArgs } from "../../server/cli/command.ts";
import { streamFromChunks } from "../support/stream-chunks.ts";
import { tempDir } from "../support/temp.ts";

function fakeIO(cwd: string, stdinChunks: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    stdin: streamFromChunks(stdinChunks),
    env: {},
    cwd,
    interrupted: new Promise(() => {}),
  };
  return { io, out, err, events: () => out.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l)) };
}

function args(flags: ParsedArgs["flags"], positionals: string[] = []): ParsedArgs {
  return { flags, positionals };
}

describe("od parse", () => {
  test("parses a file with a valid format and prints one event per line", async () => {
    using dir = tempDir("od-parse-");
    const file = join(dir.path, "codex.jsonl");
    writeFileSync(file, '{"type":"thread.started","thread_id":"t1"}\n{"type":"item.completed","item":{"id":"i","type":"agent_message","text":"hi"}}\n');
    const { io, events } = fakeIO(dir.path);
    expect(await parseCommand.run(args({ format: "json-event-stream", parser: "codex" }, ["codex.jsonl"]), io)).toBe(0);
    expect(events()).toEqual([
      { type: "status", label: "initializing", sessionId: "t1" },
      { type: "text_delta", delta: "hi" },
    ]);
  });

  test("unknown format → exit 2 with a one-line error listing the valid ones", async () => {
    const { io, out, err } = fakeIO("/");
    expect(await parseCommand.run(args({ format: "nope" }), io)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join("")).toBe('od parse: unknown format "nope"; valid formats: claude-stream-json, json-event-stream, copilot-stream-json, qoder-stream-json, plain\n');
  });

  test("missing format and unknown parser → exit 2", async () => {
    expect(await parseCommand.run(args({}), fakeIO("/").io)).toBe(2);
    const { io, err } = fakeIO("/");
    expect(await parseCommand.run(args({ format: "json-event-stream", parser: "zzz" }), io)).toBe(2);
    expect(err.join("")).toContain("valid parsers: codex, cursor-agent, opencode, mimo");
  });

  test("reads stdin when FILE is omitted or '-', split across chunks, with --cwd", async () => {
    for (const positionals of [[], ["-"]]) {
      const line = '{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Write","input":{"file_path":"/proj/a.html"}}]}}\n';
      const { io, events } = fakeIO("/", [line.slice(0, 30), line.slice(30)]);
      expect(await parseCommand.run(args({ format: "claude-stream-json", cwd: "/proj" }, positionals), io)).toBe(0);
      expect(events()).toEqual([{ type: "tool_use", id: "t", name: "Write", input: { file_path: "/proj/a.html" }, kind: "file_write", path: "a.html" }]);
    }
  });

  test("plain writes artifacts into --out-dir", async () => {
    using dir = tempDir("od-parse-");
    const text = 'Here:\n<artifact identifier="landing" type="text/html" title="L">\n<h1>x</h1>\n</artifact>\n';
    const { io, events } = fakeIO(dir.path, [text]);
    expect(await parseCommand.run(args({ format: "plain", "out-dir": "out" }), io)).toBe(0);
    expect(events()).toEqual([
      { type: "text_delta", delta: text },
      { type: "artifact", source: "plain-stream", name: "landing.html", path: "landing.html", identifier: "landing", artifactType: "text/html" },
    ]);
    expect(readFileSync(join(dir.path, "out", "landing.html"), "utf8")).toBe("<h1>x</h1>\n");
  });

  test("a missing file → exit 1 with a message, no throw", async () => {
    const { io, err } = fakeIO("/nonexistent-dir-for-od-test");
    expect(await parseCommand.run(args({ format: "plain" }, ["missing.txt"]), io)).toBe(1);
    expect(err.join("")).toContain("od parse:");
  });
});

describe("od parse output", () => {
  test("a long transcript reaches stdout in few large writes, every event in order", async () => {
    using dir = tempDir("od-parse-batches-");
    const file = join(dir.path, "codex.jsonl");
    const lines = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ type: "item.completed", item: { id: `i${i}`, type: "agent_message", text: `line ${i}` } }));
    writeFileSync(file, `${lines.join("\n")}\n`);
    const { io, out, events } = fakeIO(dir.path);
    expect(await parseCommand.run(args({ format: "json-event-stream", parser: "codex" }, ["codex.jsonl"]), io)).toBe(0);
    const texts = events().filter((event) => event.type === "text_delta");
    expect(texts.map((event) => event.delta).join("")).toBe(Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n"));
    expect(out.length).toBeLessThan(500);
  });
});
