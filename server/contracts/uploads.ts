/**
 * Image uploads into a project (`POST /api/projects/:id/uploads`). The body is JSON because every POST must be
 * `application/json` (the request guard); the file travels base64-encoded.
 */
import { z } from "./zod.ts";

export { MAX_UPLOAD_BYTES } from "./body-limits.ts";

export const UploadRequest = z.object({
  /** The original file name; sanitised, and its extension replaced by the sniffed type's. */
  name: z.string().min(1).max(255),
  /** The file's bytes, base64 (standard or url-safe alphabet; a `data:` URL prefix is accepted). */
  dataBase64: z.string().min(1),
  /** What the browser said the type was; informational — the type is sniffed from the bytes. */
  mimeType: z.string().max(100).optional(),
});
export type UploadRequest = z.infer<typeof UploadRequest>;

export const UploadResponse = z.object({
  /** Project-relative path, usable in a run's `attachments`. */
  path: z.string(),
  name: z.string(),
  mimeType: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]),
  size: z.number(),
});
export type UploadResponse = z.infer<typeof UploadResponse>;
