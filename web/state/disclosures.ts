/**
 * Which collapsible sections (a tool card's diff or output, a changed file's diff) the reader opened or closed, by a
 * key unique in the page. A section's own `<details>` forgets that when its row leaves the DOM (the windowed lists
 * unmount what is far from the viewport), and a closed section renders no body, so the choice is kept here.
 * Only a reader's choices are kept: a section never toggled follows its default, which may change (an output that
 * grew past its folding length closes).
 */
import { signal, type Signal } from "@preact/signals";

const chosen = new Map<string, Signal<boolean>>();
/** Bumped when a section is chosen for the first time: a section reading its default then reads its choice. */
const firstChoices = signal(0);

/** Whether the section `key` is open: the reader's choice, else `byDefault`. Read in a render, it re-renders on a choice. */
export function isDisclosed(key: string, byDefault: boolean): boolean {
  const choice = chosen.get(key);
  if (choice) return choice.value;
  firstChoices.value;
  return byDefault;
}

/** The reader opened or closed the section `key`. */
export function chooseDisclosed(key: string, open: boolean): void {
  const choice = chosen.get(key);
  if (choice) {
    choice.value = open;
    return;
  }
  chosen.set(key, signal(open));
  firstChoices.value++;
}
