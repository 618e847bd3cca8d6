import { afterAll, describe, expect, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statFileOnDisk, statFileWithDirCache } from "../../server/runtimes/executables.ts";

const root = mkdtempSync(join(tmpdir(), "od-dir-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(name: string, mode: number): string {
  const path = join(root, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, mode);
  return path;
}

describe("statFileWithDirCache", () => {
  test("answers like statFileOnDisk for executable, non-executable, missing, case-mismatched and missing-dir paths", () => {
    const paths = [
      file("tool", 0o755),
      file("plain", 0o644),
      join(root, "absent"),
      join(root, "TOOL"),
      join(root, "no-such-dir", "tool"),
      join(root, "tool", "child"),
      root,
    ];
    const cached = statFileWithDirCache("linux");
    for (const path of paths) expect(`${path}: ${cached(path)}`).toBe(`${path}: ${statFileOnDisk(path, "linux")}`);
  });

  test("a directory reached through a link is the same folder: listed once, answered alike", () => {
    const folder = join(root, "usr-bin");
    mkdirSync(folder);
    writeFileSync(join(folder, "agent"), "#!/bin/sh\n");
    chmodSync(join(folder, "agent"), 0o755);
    symlinkSync(folder, join(root, "bin-link"));
    const listed: string[] = [];
    const real = fs.readdirSync;
    const spy = spyOn(fs, "readdirSync").mockImplementation(((dir: string, ...rest: unknown[]) => (listed.push(String(dir)), (real as (...args: unknown[]) => unknown)(dir, ...rest))) as typeof fs.readdirSync);
    try {
      const pass = statFileWithDirCache("linux");
      expect(pass(join(folder, "agent"))).toBe("executable");
      expect(pass(join(root, "bin-link", "agent"))).toBe("executable");
      expect(pass(join(root, "bin-link", "absent"))).toBe("missing");
    } finally {
      spy.mockRestore();
    }
    expect(listed).toEqual([folder]);
  });

  test("lists a directory once per pass, so a new pass sees a file added after the first listing", () => {
    const pass = statFileWithDirCache("linux");
    expect(pass(join(root, "later"))).toBe("missing");
    file("later", 0o755);
    expect(pass(join(root, "later"))).toBe("missing");
    expect(statFileWithDirCache("linux")(join(root, "later"))).toBe("executable");
  });
});
