/**
 * Who hears that a location answered: every remote command that reached its host or container (a probe, a listing,
 * a snapshot, a sweep) says so here. Work that waits for a location to be reachable again — a run's clean-up there
 * that could not finish — listens instead of polling the location itself.
 */
import type { RemoteLocation } from "./machine-url.ts";

type Listener = (location: RemoteLocation) => void;

const listeners = new Set<Listener>();

/** Calls `listener` each time a command reached a location; returns the function that stops it. */
export function onLocationAnswered(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A command just reached `location`. A listener that throws is its own problem, never the command's. */
export function locationAnswered(location: RemoteLocation): void {
  for (const listener of listeners) {
    try {
      listener(location);
    } catch {
      // The command's result stands whatever a listener did with the news.
    }
  }
}
