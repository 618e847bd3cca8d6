/**
 * A child's stdout, chunk by chunk, each chunk noted as activity, with one turn of the event loop after each chunk's
 * events have been handled (when the reader asks for the next one).
 *
 * A CLI that writes faster than od reads (a burst: its pipe already full) is otherwise read chunk after chunk without
 * the loop ever turning, each read settling at once: every other run, request and SSE writer of the daemon waits until
 * the burst is over, and a live reader's queue overflows into re-reading the run's events from sqlite. Measured on a
 * 50k-event HTTP API run (dist/od, interleaved): −15 to −24 ms and −40 ms of the daemon's CPU per run; `od run` on
 * 100k lines, latency at 5k events/s and the daemon's memory with ten runs within noise. A CLI that streams at its
 * model's pace is unaffected: the loop turns anyway while its next chunk is awaited.
 */
import { nextTurn } from "../next-turn.ts";

export async function* readWithTurns(stdout: AsyncIterable<Uint8Array>, onChunk: () => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of stdout) {
    onChunk();
    yield chunk;
    await nextTurn();
  }
}
