/**
 * `useState` whose value outlives its component, kept by key for as long as the page is open: what a person chose or
 * typed in a card (an answer to the agent's question, a message for a denial) is still there when the card leaves the
 * windowed list (rows far from the viewport are unmounted) and comes back.
 */
import { useState } from "preact/hooks";

const kept = new Map<string, unknown>();

/** The value kept under `key` (else `initial()`), a setter that keeps what it sets, and `forget` for when it is done. */
export function useKeptState<T>(key: string, initial: () => T): [T, (next: T) => void, () => void] {
  const [value, setValue] = useState<T>(() => (kept.has(key) ? (kept.get(key) as T) : initial()));
  const set = (next: T) => {
    kept.set(key, next);
    setValue(next);
  };
  return [value, set, () => void kept.delete(key)];
}
