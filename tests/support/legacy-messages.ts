/** Assistant messages as od stored them before migration 9: the answer's text in `text` as well as in its events. */
import type { PersistedEvent } from "../../server/contracts/projects.ts";
import type { Store } from "../../server/store/store.ts";

export function completeAsBeforeTextOnce(store: Store, id: string, outcome: { text: string; events: PersistedEvent[]; endedAt?: number; files?: string[] }): void {
  store.db
    .prepare("UPDATE messages SET text = ?, events_json = ?, ended_at = ?, files_json = ? WHERE id = ?")
    .run(outcome.text, JSON.stringify(outcome.events), outcome.endedAt ?? 1, JSON.stringify(outcome.files ?? []), id);
}
