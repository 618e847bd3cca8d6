/**
 * Golden-fixture plumbing shared by the golden test and scripts/update-golden.ts: which fixture folders map to
 * which stream format, and how a fixture is parsed (whole file through the layered reader, as a run would).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import type { AgentEvent } from "../../../server/contracts/events.ts";
import { isJsonEventParser, isStreamFormat, type StreamFormat } from "../../../server/runtimes/streams/index.ts";
import { readStreamEvents } from "../../../server/runtimes/streams/read-events.ts";

export const FIXTURES_DIR = join(import.meta.dir, "..", "..", "fixtures");

/** Fixture folder (CLI name) → the parser its stdout goes through. */
export const FIXTURE_FORMATS: Record<string, { streamFormat: StreamFormat; eventParser?: string }> = {
  claude: { streamFormat: "claude-stream-json" },
  "claude-partial": { streamFormat: "claude-stream-json" },
  amp: { streamFormat: "claude-stream-json" },
  codebuddy: { streamFormat: "claude-stream-json" },
  qwen: { streamFormat: "claude-stream-json" },
  codex: { streamFormat: "json-event-stream", eventParser: "codex" },
  opencode: { streamFormat: "json-event-stream", eventParser: "opencode" },
  kilo: { streamFormat: "json-event-stream", eventParser: "opencode" },
  mimo: { streamFormat: "json-event-stream", eventParser: "opencode" },
  "cursor-agent": { streamFormat: "json-event-stream", eventParser: "cursor-agent" },
  copilot: { streamFormat: "copilot-stream-json" },
  qoder: { streamFormat: "qoder-stream-json" },
};

/** cwd used for synthetic fixtures (their absolute paths live under it). */
export const SYNTHETIC_CWD = "/project";

/** A transcript with its parser settings. */
export type Fixture = { file: string; goldenFile: string; streamFormat: StreamFormat; eventParser?: string; cwd: string };

type Meta = { cwd?: unknown; command?: unknown; streamFormat?: unknown; eventParser?: unknown };

/** Every fixture transcript our parsers should read (recordings of other transports are skipped). */
export function listFixtures(): Fixture[] {
  const out: Fixture[] = [];
  if (!existsSync(FIXTURES_DIR)) return out;
  for (const cli of readdirSync(FIXTURES_DIR).sort()) {
    const dir = join(FIXTURES_DIR, cli);
    const defaults = FIXTURE_FORMATS[cli];
    if (!defaults || !existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith(".jsonl")) continue;
      const stem = name.slice(0, -".jsonl".length);
      const meta = readMeta(join(dir, `${stem.replace(/\.synthetic$/, "")}.meta.json`));
      const command = Array.isArray(meta.command) ? meta.command.join(" ") : String(meta.command ?? "");
      if (/app-server|--acp|\bacp\b|--mode rpc|--input-format stream-json.*control/.test(command) && !meta.streamFormat) continue;
      const streamFormat = typeof meta.streamFormat === "string" && isStreamFormat(meta.streamFormat) ? meta.streamFormat : defaults.streamFormat;
      const eventParser = typeof meta.eventParser === "string" && isJsonEventParser(meta.eventParser) ? meta.eventParser : defaults.eventParser;
      out.push({
        file: join(dir, name),
        goldenFile: join(dir, `${stem}.events.json`),
        streamFormat,
        eventParser,
        cwd: typeof meta.cwd === "string" ? meta.cwd : SYNTHETIC_CWD,
      });
    }
  }
  return out;
}

/** Parses a fixture exactly as a run would: file bytes → lines → parser. */
export async function parseFixture(fixture: Fixture): Promise<AgentEvent[]> {
  // Recordings replace the run's folder with `<CWD>`; give it a real absolute value so relative tool paths show.
  const bytes = Buffer.from(readFileSync(fixture.file, "utf8").replaceAll("<CWD>", fixture.cwd), "utf8");
  async function* source() {
    yield new Uint8Array(bytes);
  }
  const events: AgentEvent[] = [];
  for await (const event of readStreamEvents(source(), fixture.streamFormat, fixture.eventParser, { cwd: fixture.cwd })) events.push(event);
  return events;
}

function readMeta(path: string): Meta {
  if (!existsSync(path)) return {};
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return typeof value === "object" && value !== null ? (value as Meta) : {};
  } catch {
    return {};
  }
}
