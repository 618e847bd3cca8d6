/** What a run changed in its project folder: one entry per file, with a unified diff where one can be shown. */
import { z } from "./zod.ts";

export const FileChangeKind = z.enum(["created", "modified", "deleted"]);
export type FileChangeKind = z.infer<typeof FileChangeKind>;

export const FileChange = z.object({
  /** Project-relative, forward slashes. */
  path: z.string(),
  kind: FileChangeKind,
  /** Unified diff (`--- a/…`, `+++ b/…`, hunks); null when the file is binary or its content was not kept. */
  diff: z.string().nullable(),
  /** Lines added and removed (0 when there is no diff). */
  additions: z.number().int(),
  deletions: z.number().int(),
  binary: z.boolean(),
  /** Why there is no (complete) diff: `too-large` (content not kept or diff cut), `binary`. */
  omitted: z.enum(["too-large", "binary"]).optional(),
  /** SHA-256 (hex) of the file's text as the run left it; absent for a deleted, binary or unread file. */
  afterSha256: z.string().optional(),
});
export type FileChange = z.infer<typeof FileChange>;

/** `GET /api/runs/:id/changes`. `source` says how they were found: git's view of the folder, or a bounded walk. */
export const RunChangesResponse = z.object({
  changes: z.array(FileChange),
  source: z.enum(["git", "walk"]).nullable(),
});
export type RunChangesResponse = z.infer<typeof RunChangesResponse>;

/** `POST /api/runs/:id/revert`: the files put back as they were before the run (created ones removed). */
export const RevertRunResponse = z.object({
  reverted: z.array(z.string()),
});
export type RevertRunResponse = z.infer<typeof RevertRunResponse>;
