import { expect, test } from "bun:test";
import { parseLoginPath, rememberLoginPath, withLoginPath } from "../../server/machines/login-path.ts";

test("the login shell's folders come first, then those it dropped; a login that printed no PATH gives none", () => {
  expect(parseLoginPath("/home/a/.local/bin:/usr/bin:/bin\n/opt/image/bin:/usr/bin\n")).toBe("/home/a/.local/bin:/usr/bin:/bin:/opt/image/bin");
  expect(parseLoginPath("\n/usr/bin:/bin\n")).toBeUndefined();
  expect(parseLoginPath("")).toBeUndefined();
  expect(parseLoginPath("relative:./bin\n/usr/bin\n")).toBeUndefined();
});

test("a machine's login PATH is added to an environment without a PATH of its own", () => {
  rememberLoginPath("ssh://login-path-test", "/home/a/tools:/usr/bin");
  expect(withLoginPath("ssh://login-path-test", { A: "1" })).toEqual({ A: "1", PATH: "/home/a/tools:/usr/bin" });
  expect(withLoginPath("ssh://login-path-test", { PATH: "/mine" })).toEqual({ PATH: "/mine" });
  expect(withLoginPath("ssh://never-reached", { A: "1" })).toEqual({ A: "1" });
});
