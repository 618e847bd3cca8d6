/**
 * `od parse`: replays a captured CLI stdout through the stream parser of a runtime and prints one AgentEvent JSON per
 * line. Useful to debug a parser against a user's transcript without running the CLI. For `plain`, `<artifact>`
 * blocks are written into `--out-dir` at the end, as a run would write them into the project folder.
 */
import { resolve } from "node:path";
import type { AgentEvent } from "../contracts/events.ts";
import { endStartupJitPolicy } from "../platform/jit-policy.ts";
import { isJsonEventParser, isStreamFormat, JSON_EVENT_PARSERS, STREAM_FORMATS, takesTextChunks, type StreamFormat } from "../runtimes/streams/formats.ts";
import { batchedOutput } from "./batched-output.ts";
import type { CommandIO, CommandSpec, ParsedArgs } from "./command.ts";
import { fileChunks } from "./file-chunks.ts";

function flag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * A line-oriented transcript file is read 256 KiB at a time: at 64 KiB, reading 50 MiB cost more CPU than parsing a
 * third of it (and each chunk is one more call into the native JSON-lines parser). A `plain` one is read 64 KiB at a
 * time: each of its chunks becomes one text event, and larger ones made its peak memory grow with the file.
 */
const LINES_CHUNK_BYTES = 256 * 1024;
const TEXT_CHUNK_BYTES = 64 * 1024;

/** The readers below are done with each chunk before they ask for the next, so a file's chunks share one buffer. */
function inputOf(file: string | undefined, io: CommandIO, format: StreamFormat): AsyncIterable<Uint8Array> {
  if (file === undefined || file === "-") return io.stdin;
  return fileChunks(resolve(io.cwd, file), takesTextChunks(format) ? TEXT_CHUNK_BYTES : LINES_CHUNK_BYTES);
}

export const parseCommand: CommandSpec = {
  name: "parse",
  summary: "Parse a captured CLI stdout into AgentEvent JSON lines",
  details: `Formats: ${STREAM_FORMATS.join(", ")}. Parsers for json-event-stream: ${JSON_EVENT_PARSERS.join(", ")}.\nReads FILE, or stdin when FILE is omitted or "-".`,
  flags: [
    { name: "format", type: "string", valueName: "FORMAT", description: "Stream format of the transcript (a runtime's streamFormat)" },
    { name: "parser", type: "string", valueName: "PARSER", description: "Event parser for json-event-stream (codex, opencode, …)" },
    { name: "cwd", type: "string", valueName: "DIR", description: "The run's folder; tool paths inside it are shown relative" },
    { name: "out-dir", type: "string", valueName: "DIR", description: "plain only: write <artifact> blocks into DIR" },
  ],
  positionals: [{ name: "FILE", description: 'Captured stdout ("-" for stdin)', optional: true }],
  async run(args, io) {
    const format = flag(args, "format");
    if (format === undefined || !isStreamFormat(format)) {
      io.stderr(`od parse: ${format === undefined ? "missing --format" : `unknown format "${format}"`}; valid formats: ${STREAM_FORMATS.join(", ")}\n`);
      return 2;
    }
    const parser = flag(args, "parser");
    if (parser !== undefined && !isJsonEventParser(parser)) {
      io.stderr(`od parse: unknown parser "${parser}"; valid parsers: ${JSON_EVENT_PARSERS.join(", ")}\n`);
      return 2;
    }
    const cwdFlag = flag(args, "cwd");
    const outDir = flag(args, "out-dir");
    const file = args.positionals[0];
    // One write per 64 KiB of events (or per turn of the event loop), not one per event.
    const output = batchedOutput(io.stdout);
    const print = (event: AgentEvent) => output.write(`${JSON.stringify(event)}\n`);
    const [{ readStreamEventBatches }, { ArtifactSpool }] = await Promise.all([
      import("../runtimes/streams/read-events.ts"),
      import("../runtimes/streams/artifacts.ts"),
    ]);
    // Start-up is over: from here the transcript is read, parsed and printed line by line.
    endStartupJitPolicy();
    // Artifacts are spooled as the text streams, so memory stays flat however large the transcript is.
    using artifacts = format === "plain" && outDir !== undefined ? new ArtifactSpool() : undefined;
    try {
      for await (const batch of readStreamEventBatches(inputOf(file, io, format), format, parser, { cwd: cwdFlag ? resolve(io.cwd, cwdFlag) : undefined })) {
        for (const event of batch) {
          if (artifacts && event.type === "text_delta") artifacts.push(event.delta);
          print(event);
        }
      }
      if (artifacts && outDir !== undefined) for (const event of artifacts.commit(resolve(io.cwd, outDir))) print(event);
      output.flush();
    } catch (error) {
      output.flush();
      io.stderr(`od parse: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    return 0;
  },
};
