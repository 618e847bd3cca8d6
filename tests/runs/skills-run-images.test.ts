// resolveRunImages: a run's attachments must be real png/jpeg/gif/webp files inside the project.
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveRunImages } from "../../server/inputs/run-images.ts";
import { tempDir } from "../support/temp.ts";

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

test("valid images resolve to absolute paths once; everything else is skipped with a reason", () => {
  using temp = tempDir("od-run-images-");
  const project = join(temp.path, "project");
  mkdirSync(join(project, "img"), { recursive: true });
  writeFileSync(join(project, "img", "a.png"), PNG_HEAD);
  writeFileSync(join(project, "img", "text.png"), "hello");
  writeFileSync(join(temp.path, "outside.png"), PNG_HEAD);
  symlinkSync(join(temp.path, "outside.png"), join(project, "img", "link-out.png"));
  symlinkSync(join(project, "img", "a.png"), join(project, "img", "link-in.png"));

  const result = resolveRunImages(project, ["img/a.png", "img/a.png", "img/link-in.png", "img/text.png", "img/link-out.png", "img", "missing.png", "/etc/hostname", "../outside.png"]);
  expect(result.paths).toEqual([join(project, "img", "a.png")]); // the inner link resolves to the same file
  expect(result.skipped).toEqual([
    { attachment: "img/text.png", reason: "not a PNG, JPEG, GIF or WebP image" },
    { attachment: "img/link-out.png", reason: "not a file inside the project" },
    { attachment: "img", reason: "not a file" },
    { attachment: "missing.png", reason: "not a file inside the project" },
    { attachment: "/etc/hostname", reason: "not a file inside the project" },
    { attachment: "../outside.png", reason: "not a file inside the project" },
  ]);
});
