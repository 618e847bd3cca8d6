/** A finished run's recorded file changes, as its tool cards read them (web/lib/write-changes.ts). */
import { createContext } from "preact";
import type { RunWriteChanges } from "../lib/write-changes.ts";

export const WriteChangesContext = createContext<RunWriteChanges | null>(null);
