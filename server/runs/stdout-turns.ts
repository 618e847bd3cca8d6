/**
 * A child's stdout, chunk by chunk, each chunk noted as activity, with the runs' reading sharing the event loop
 * (`readingShare`): after each chunk's events have been handled (when the reader asks for the next one), a run goes
 * on while the loop's current share lasts, else it waits in line for a later turn.
 *
 * A CLI that writes faster than od reads (a burst: its pipe already full) is otherwise read chunk after chunk without
 * the loop ever turning, each read settling at once: every other run, request and SSE writer of the daemon waits until
 * the burst is over, and a live reader's queue overflows into re-reading the run's events from sqlite. A turn after
 * every chunk was not enough with many runs: fifty runs' turns fell in the same turn of the loop (see LoopShare). A
 * CLI that streams at its model's pace is unaffected: the loop turns anyway while its next chunk is awaited.
 */
import { LoopShare } from "../next-turn.ts";

/** How much of a turn of the loop the runs' reading may take before the loop polls for I/O again. */
const READING_SHARE_MS = 10;

/** Shared by every run's reading (and by the handling of a chunk's events, a slice at a time: attempt.ts). */
export const readingShare = new LoopShare(READING_SHARE_MS);

export async function* readWithTurns(stdout: AsyncIterable<Uint8Array>, onChunk: () => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of stdout) {
    onChunk();
    yield chunk;
    await readingShare.take();
  }
}
