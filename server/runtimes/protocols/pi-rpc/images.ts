/**
 * Images for pi's `prompt` command: base64 ImageContent objects. At most 10, png/jpg/jpeg/gif/webp, ≤ 20 MB each;
 * anything unreadable or invalid is skipped with a reason rather than failing the run.
 */
import { readFile, stat } from "node:fs/promises";
import { extname } from "node:path";

export const PI_MAX_IMAGES = 10;
export const PI_MAX_IMAGE_BYTES = 20 * 1024 * 1024;

const MIME: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };

/** One image as pi expects it. */
export type PiImage = { type: "image"; data: string; mimeType: string };

/** Reads the images; `skipped` explains each one left out. */
export async function loadPiImages(paths: string[]): Promise<{ images: PiImage[]; skipped: string[] }> {
  const images: PiImage[] = [];
  const skipped: string[] = [];
  for (const path of paths) {
    if (images.length >= PI_MAX_IMAGES) {
      skipped.push(`${path}: more than ${PI_MAX_IMAGES} images`);
      continue;
    }
    const mimeType = MIME[extname(path).toLowerCase()];
    if (!mimeType) {
      skipped.push(`${path}: unsupported image type`);
      continue;
    }
    try {
      const info = await stat(path);
      if (!info.isFile()) throw new Error("not a file");
      if (info.size > PI_MAX_IMAGE_BYTES) {
        skipped.push(`${path}: larger than 20 MB`);
        continue;
      }
      images.push({ type: "image", data: (await readFile(path)).toString("base64"), mimeType });
    } catch (error) {
      skipped.push(`${path}: unreadable (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return { images, skipped };
}
