import { expect, test } from "bun:test";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { chosenDataDir } from "../server/data-dir.ts";
import { resolveDataDir } from "../server/paths.ts";

test("the data dir: --data-dir, else $OD_DATA_DIR, else ~/.od ($HOME, or the OS's idea of home without it)", () => {
  expect(resolveDataDir({ OD_DATA_DIR: "/env/od", HOME: "/home/me" }, "rel/dir")).toBe(resolve("rel/dir"));
  expect(resolveDataDir({ OD_DATA_DIR: "env/od", HOME: "/home/me" })).toBe(resolve("env/od"));
  expect(resolveDataDir({ HOME: "/home/me" })).toBe(join("/home/me", ".od"));
  expect(resolveDataDir({})).toBe(join(homedir(), ".od"));
});

test("the daemon's shell passes the choice on as given; resolving it gives resolveDataDir's answer", () => {
  for (const [env, override] of [[{ OD_DATA_DIR: "/env/od", HOME: "/home/me" }, "rel/dir"], [{ OD_DATA_DIR: "env/od" }, undefined], [{ HOME: "/home/me" }, undefined]] as const) {
    expect(resolve(chosenDataDir(env, override))).toBe(resolveDataDir(env, override));
  }
  expect(chosenDataDir({ HOME: "/home/me" }, "rel/dir")).toBe("rel/dir");
});
