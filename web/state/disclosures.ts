/**
 * Which collapsible sections (a tool card's diff or output, a changed file's diff) the reader opened or closed, by a
 * key unique in the page. A section's own `<details>` forgets that when its row leaves the DOM (the windowed lists
 * unmount what is far from the viewport), and a closed section renders no body, so the choice is kept here, and in
 * the tab (a reload shows the same sections open, so its rows are as tall as before and the reader's place is found
 * again). Only a reader's choices are kept: a section never toggled follows its default, which may change (an
 * output that grew past its folding length closes).
 */
import { signal, type Signal } from "@preact/signals";
import { tabMemory, type TabMemory } from "./tab-memory.ts";

/** Choices kept across reloads: the newest this many (a long session's tool calls, each with a section or two). */
const KEPT_CHOICES = 1000;

/** A section's key in the page: the run it belongs to (its scope) and its id there (a row's key and which section). */
export const sectionKey = (scope: string, id: string): string => `${scope}\n${id}`;

/**
 * Whether `section` of the row keyed `rowKey` is open: the reader's choice, else `byDefault`. What a row's height guess
 * reads (web/components/row-heights.ts), so a row never shown on this page is guessed as the reader left it.
 */
export type SectionOpen = (rowKey: string, section: string, byDefault: boolean) => boolean;

export type Disclosures = {
  /** Whether the section `key` is open: the reader's choice, else `byDefault`. Read in a render, it re-renders on a choice. */
  isDisclosed(key: string, byDefault: boolean): boolean;
  /** The reader opened or closed the section `key`. */
  chooseDisclosed(key: string, open: boolean): void;
  /** The sections of the run `scope`, read without re-rendering on a later choice (a row chosen is shown, so measured). */
  sectionsOf(scope: string): SectionOpen;
};

export function createDisclosures(memory: TabMemory): Disclosures {
  const chosen = new Map<string, Signal<boolean>>();
  /** Bumped when a section is chosen for the first time: a section reading its default then reads its choice. */
  const firstChoices = signal(0);
  /** This page's choice for `key`, else one an earlier page of the tab kept. */
  const choiceOf = (key: string): Signal<boolean> | undefined => {
    const choice = chosen.get(key);
    if (choice) return choice;
    const kept = memory.get(key);
    if (typeof kept !== "boolean") return undefined;
    const restored = signal(kept);
    chosen.set(key, restored);
    return restored;
  };
  return {
    isDisclosed(key, byDefault) {
      const choice = choiceOf(key);
      if (choice) return choice.value;
      firstChoices.value;
      return byDefault;
    },
    chooseDisclosed(key, open) {
      memory.set(key, open);
      const choice = chosen.get(key);
      if (choice) {
        choice.value = open;
        return;
      }
      chosen.set(key, signal(open));
      firstChoices.value++;
    },
    sectionsOf: (scope) => (rowKey, section, byDefault) => choiceOf(sectionKey(scope, `${rowKey}\n${section}`))?.peek() ?? byDefault,
  };
}

const page = createDisclosures(tabMemory("disclosed", KEPT_CHOICES));

export const isDisclosed = page.isDisclosed;
export const chooseDisclosed = page.chooseDisclosed;
export const sectionsOf = page.sectionsOf;
