/**
 * A run's `attachments` (project-relative paths) → absolute image paths for the agent. Each must resolve inside
 * the project (also through symlinks), be a readable file, be png/jpeg/gif/webp by its bytes and at most 20 MB;
 * anything else is skipped with a reason (the run goes on).
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { resolveInsideProject } from "../machines/folder-paths.ts";
import { sniffImageType } from "./image-type.ts";

export const MAX_RUN_IMAGE_BYTES = 20 * 1024 * 1024;

export function resolveRunImages(projectDir: string, attachments: readonly string[]): { paths: string[]; skipped: { attachment: string; reason: string }[] } {
  const paths: string[] = [];
  const skipped: { attachment: string; reason: string }[] = [];
  for (const attachment of attachments) {
    const resolved = resolveInsideProject(projectDir, attachment);
    if (!resolved) {
      skipped.push({ attachment, reason: "not a file inside the project" });
      continue;
    }
    const problem = imageProblem(resolved);
    if (problem) skipped.push({ attachment, reason: problem });
    else if (!paths.includes(resolved)) paths.push(resolved);
  }
  return { paths, skipped };
}

function imageProblem(path: string): string | undefined {
  try {
    const info = statSync(path);
    if (!info.isFile()) return "not a file";
    if (info.size > MAX_RUN_IMAGE_BYTES) return "larger than 20 MB";
    const head = new Uint8Array(16);
    const fd = openSync(path, "r");
    try {
      readSync(fd, head, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
    return sniffImageType(head) ? undefined : "not a PNG, JPEG, GIF or WebP image";
  } catch (error) {
    return `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}
