/** `GET /api/folders`: the folders in one folder of this machine or another, for choosing a project's folder. */
import { z } from "./zod.ts";

export const ListFoldersQuery = z.object({
  /** The machine: `ssh://[user@]host[:port]` or `docker://CONTAINER`; this machine when absent. */
  location: z.string().min(1).optional(),
  /** An absolute folder there; its home folder when absent (`~` and `~/…` too). */
  path: z.string().min(1).max(4096).optional(),
  /** "1": list hidden folders (names starting with a dot) too. */
  hidden: z.enum(["0", "1"]).optional(),
});
export type ListFoldersQuery = z.infer<typeof ListFoldersQuery>;

export const FolderListResponse = z.object({
  /** The folder listed, absolute on its machine, symlinks resolved. */
  path: z.string(),
  /** Its parent (null at the root). */
  parent: z.string().nullable(),
  /** The machine's home folder. */
  home: z.string(),
  /** The folders in it, by name, sorted. */
  folders: z.array(z.string()),
  /** More folders than listed (at most `MAX_FOLDERS`). */
  truncated: z.boolean(),
});
export type FolderListResponse = z.infer<typeof FolderListResponse>;
