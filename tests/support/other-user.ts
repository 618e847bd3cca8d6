/**
 * A second local account for the tests of what another user on the machine can do to od (plant files and symlinks
 * in shared folders, read what od leaves there). Made with `useradd` when missing (the tests run as root, as CI
 * does); commands run as it through `runuser`. Without root the helper throws, so those tests fail instead of skipping.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const OTHER_USER = "od-second";
/** runuser by its full path: a test's PATH (a fake agent's) may not hold sbin. */
export const RUNUSER = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].find((path) => existsSync(path)) ?? "runuser";

export type OtherUser = {
  name: string;
  uid: number;
  /** Runs `argv` as that user; its exit code and output. */
  run(argv: string[]): { code: number | null; stdout: string; stderr: string };
};

export function otherUser(): OtherUser {
  if (process.getuid?.() !== 0) throw new Error("these tests act as a second local account: run them as root (useradd, runuser)");
  if (spawnSync("id", ["-u", OTHER_USER]).status !== 0) {
    const made = spawnSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER_USER], { encoding: "utf8" });
    // Another test file may have made it meanwhile.
    if (made.status !== 0 && spawnSync("id", ["-u", OTHER_USER]).status !== 0) throw new Error(`useradd ${OTHER_USER} failed: ${made.stderr}`);
  }
  const uid = Number(spawnSync("id", ["-u", OTHER_USER], { encoding: "utf8" }).stdout.trim());
  return {
    name: OTHER_USER,
    uid,
    run(argv) {
      const result = spawnSync(RUNUSER, ["-u", OTHER_USER, "--", ...argv], { encoding: "utf8", timeout: 10_000 });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    },
  };
}
