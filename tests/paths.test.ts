import { expect, test } from "bun:test";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { resolveDataDir } from "../server/paths.ts";

test("the data dir: --data-dir, else $OD_DATA_DIR, else ~/.od ($HOME, or the OS's idea of home without it)", () => {
  expect(resolveDataDir({ OD_DATA_DIR: "/env/od", HOME: "/home/me" }, "rel/dir")).toBe(resolve("rel/dir"));
  expect(resolveDataDir({ OD_DATA_DIR: "env/od", HOME: "/home/me" })).toBe(resolve("env/od"));
  expect(resolveDataDir({ HOME: "/home/me" })).toBe(join("/home/me", ".od"));
  expect(resolveDataDir({})).toBe(join(homedir(), ".od"));
});
