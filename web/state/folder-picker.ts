/**
 * The new-project form's folder picker: browses the folders of this machine, or of the machine a `ssh://` or
 * `docker://` URL in the path field names, from its home folder (or the folder already typed), through
 * `GET /api/folders`; choosing one gives the path field its value (a URL for another machine).
 */
import { signal } from "@preact/signals";
import type { FolderListResponse } from "../../server/contracts/folders.ts";
import { errorMessage, type Api } from "../api/client.ts";

/** The machine part of a path field (`ssh://user@host:port`, `docker://container`) and its folder, if any. */
export function splitLocation(text: string): { location: string | null; path: string | undefined } {
  const trimmed = text.trim();
  const remote = /^((?:ssh|docker):\/\/[^/]+)(\/.*)?$/.exec(trimmed);
  if (remote) return { location: remote[1]!, path: remote[2] };
  return { location: null, path: trimmed.startsWith("/") || trimmed.startsWith("~") ? trimmed : undefined };
}

export function createFolderPicker(api: Api) {
  const isOpen = signal(false, { name: "folderPicker.open" });
  const location = signal<string | null>(null, { name: "folderPicker.location" });
  const listing = signal<FolderListResponse | null>(null, { name: "folderPicker.listing" });
  const error = signal<string | null>(null, { name: "folderPicker.error" });
  const loading = signal(false, { name: "folderPicker.loading" });
  let asked = 0;

  /** Lists `path` (the machine's home when undefined); `keepError`: the reason an earlier folder failed stays shown. */
  async function go(path: string | undefined, keepError = false): Promise<void> {
    const mine = ++asked;
    loading.value = true;
    const query = new URLSearchParams();
    if (path) query.set("path", path);
    if (location.peek()) query.set("location", location.peek()!);
    try {
      const answer = await api.get<FolderListResponse>(`/api/folders?${query}`);
      if (mine !== asked) return;
      listing.value = answer;
      if (!keepError) error.value = null;
    } catch (listError) {
      if (mine !== asked) return;
      error.value = errorMessage(listError);
      // A folder typed that is not there: its machine's home instead, with the reason shown.
      if (path && !listing.peek()) await go(undefined, true);
    } finally {
      if (mine === asked) loading.value = false;
    }
  }

  return {
    isOpen,
    location,
    listing,
    error,
    loading,
    /** Opens on the machine and folder the path field names (its home when it names no folder). */
    open(fieldText: string): Promise<void> {
      const { location: where, path } = splitLocation(fieldText);
      location.value = where;
      listing.value = null;
      error.value = null;
      isOpen.value = true;
      return go(path);
    },
    close(): void {
      isOpen.value = false;
    },
    go: (path: string) => go(path),
    /** The chosen folder as the path field takes it. */
    chosen(): string | null {
      const here = listing.peek()?.path;
      if (!here) return null;
      return location.peek() ? `${location.peek()}${here}` : here;
    },
  };
}
export type FolderPicker = ReturnType<typeof createFolderPicker>;
