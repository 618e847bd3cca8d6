/**
 * A child process for tests/runs/per-event-tiers.test.ts: a fixture transcript repeated into a long stream (about
 * LINES lines), read as a run reads its CLI's stdout (64 KiB chunks through readStreamEventBatches) into a fold and a
 * usage tally: the per-event path of a run of that stream format, without its store and its process. Its own
 * per-event loop goes through `perEvent` like od's, so what the runtime's FTL compiles here is the reader's, the
 * parser's and the fold's. Prints the number of events.
 *   bun stream-through-fold.ts FILE STREAM_FORMAT EVENT_PARSER|- CWD LINES
 */
import { readFileSync } from "node:fs";
import type { AgentEvent } from "../../server/contracts/events.ts";
import { endStartupJitPolicy } from "../../server/platform/jit-policy.ts";
import { perEvent } from "../../server/platform/jit-tiers.ts";
import { EventFolder } from "../../server/runs/fold.ts";
import { UsageTally } from "../../server/runs/usage-tally.ts";
import { readStreamEventBatches } from "../../server/runtimes/streams/read-events.ts";
import type { StreamFormat } from "../../server/runtimes/streams/index.ts";

const CHUNK_BYTES = 64 * 1024;
// As `od parse` does before it reads: the runtime's normal policy, and the per-event code marked as it is named.
endStartupJitPolicy();
const [file, streamFormat, eventParser, cwd, lines] = process.argv.slice(2);
const transcript = readFileSync(file!, "utf8").replaceAll("<CWD>", cwd!).trimEnd() + "\n";
const stream = new TextEncoder().encode(transcript.repeat(Math.ceil(Number(lines) / transcript.split("\n").length)));

async function* chunks(): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < stream.length; at += CHUNK_BYTES) yield stream.subarray(at, at + CHUNK_BYTES);
}

function fold(folder: EventFolder, tally: UsageTally, batch: AgentEvent[]): void {
  for (const event of batch) {
    folder.push(event);
    tally.push(event);
  }
}
perEvent(fold);

const folder = new EventFolder();
const tally = new UsageTally();
let events = 0;
for await (const batch of readStreamEventBatches(chunks(), streamFormat as StreamFormat, eventParser === "-" ? undefined : eventParser, { cwd: cwd! })) {
  fold(folder, tally, batch);
  events += batch.length;
}
console.log(events);
