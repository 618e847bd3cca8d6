/**
 * Storing uploaded images in a project: `<project>/.od/uploads/<sanitised name>.<sniffed ext>`. Only png, jpeg,
 * gif and webp (sniffed from the bytes), at most 10 MB; names lose any path and odd characters; an existing file
 * is never overwritten (`name-2.png`, `name-3.png`, …).
 */
import { nodeBuffer } from "../platform/node-buffer.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_UPLOAD_BYTES } from "../contracts/body-limits.ts";
import type { UploadResponse } from "../contracts/uploads.ts";
import { sniffImageType } from "./image-type.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-data-dir.ts";

/** Project-relative folder of uploads (`/` separators). */
export const UPLOADS_DIR = ".od/uploads";

export class UploadError extends Error {
  override name = "UploadError";
  constructor(
    readonly code: "UPLOAD_TOO_LARGE" | "UNSUPPORTED_IMAGE_TYPE" | "INVALID_BASE64" | "EMPTY_UPLOAD",
    message: string,
  ) {
    super(message);
  }
}

/** Decodes base64 (standard or url-safe, optional `data:…;base64,` prefix); throws INVALID_BASE64. */
export function decodeBase64(text: string): Uint8Array {
  const payload = text.replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload) || payload.length % 4 === 1) throw new UploadError("INVALID_BASE64", "dataBase64 is not valid base64");
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  if (Math.floor((payload.length * 3) / 4) - padding > MAX_UPLOAD_BYTES) throw new UploadError("UPLOAD_TOO_LARGE", `the image is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
  return nodeBuffer().Buffer.from(payload.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

/** A safe file stem: last path segment, no extension, only `[A-Za-z0-9._-]`, no leading dots, ≤ 80 chars. */
export function sanitizeStem(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? "";
  const withoutExt = last.includes(".") ? last.slice(0, last.lastIndexOf(".")) : last;
  const stem = withoutExt
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 80);
  return stem || "image";
}

export function storeUpload(projectDir: string, name: string, bytes: Uint8Array): UploadResponse {
  if (bytes.length === 0) throw new UploadError("EMPTY_UPLOAD", "the upload is empty");
  if (bytes.length > MAX_UPLOAD_BYTES) throw new UploadError("UPLOAD_TOO_LARGE", `the image is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
  const type = sniffImageType(bytes);
  if (!type) throw new UploadError("UNSUPPORTED_IMAGE_TYPE", "only PNG, JPEG, GIF and WebP images can be attached");
  const dir = join(projectDir, ...UPLOADS_DIR.split("/"));
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stem = sanitizeStem(name);
  for (let n = 1; ; n++) {
    const fileName = `${n === 1 ? stem : `${stem}-${n}`}.${type.extension}`;
    try {
      writeFileSync(join(dir, fileName), bytes, { flag: "wx", mode: PRIVATE_FILE_MODE }); // wx: never replace another upload
      return { path: `${UPLOADS_DIR}/${fileName}`, name: fileName, mimeType: type.mimeType, size: bytes.length };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || n >= 1000) throw error;
    }
  }
}
