/**
 * `useState` whose value outlives its component, kept by key in the tab (web/state/tab-memory.ts): what a person
 * chose or typed in a card (an answer to the agent's question, a message for a denial) is still there when the card
 * leaves the windowed list (rows far from the viewport are unmounted) and comes back, and after a reload, until it is
 * sent (`forget`). A kept value is used only if `accepts` says it has the shape the card expects.
 */
import { useState } from "preact/hooks";
import { tabMemory } from "../state/tab-memory.ts";

/** Drafts kept across reloads: the newest this many (cards waiting for an answer at once are few). */
const KEPT_DRAFTS = 50;

const drafts = tabMemory("drafts", KEPT_DRAFTS);

/** The value kept under `key` (else `initial()`), a setter that keeps what it sets, and `forget` for when it is done. */
export function useKeptState<T>(key: string, initial: () => T, accepts: (value: unknown) => value is T): [T, (next: T) => void, () => void] {
  const [value, setValue] = useState<T>(() => {
    const kept = drafts.get(key);
    return kept !== undefined && accepts(kept) ? kept : initial();
  });
  const set = (next: T) => {
    drafts.set(key, next);
    setValue(next);
  };
  return [value, set, () => drafts.delete(key)];
}

export const isText = (value: unknown): value is string => typeof value === "string";

/** A list of `length` texts. */
export const isTexts =
  (length: number) =>
  (value: unknown): value is string[] =>
    Array.isArray(value) && value.length === length && value.every(isText);

/** A list of `length` lists of texts. */
export const isTextLists =
  (length: number) =>
  (value: unknown): value is string[][] =>
    Array.isArray(value) && value.length === length && value.every((texts) => Array.isArray(texts) && texts.every(isText));
