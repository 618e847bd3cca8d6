// The pieces the remote change snapshots travel in: framed sections, tar streams as GNU tar writes them (cut
// anywhere), and the records read from them. Tar streams come from the real tar, in its GNU and pax formats.
// The snapshot script refuses tools that would make its output silently empty.
import { describe, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nulRecords, readSections } from "../../server/machines/framed-sections.ts";
import { SNAPSHOT_BEFORE_SCRIPT } from "../../server/remote/remote-change-scripts.ts";
import { readContents, readIndexContents } from "../../server/remote/remote-snapshot.ts";
import { readTarEntries } from "../../server/machines/tar-entries.ts";
import { scriptFraming } from "../../server/machines/script-framing.ts";
import { tempDir } from "../support/temp.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const LONG = `${"long-folder-name/".repeat(8)}${"x".repeat(120)}.txt`;
const HOSTILE = "it's $(x) `y`;\n* ünï";

function tarOf(format: "gnu" | "pax"): Uint8Array {
  using temp = tempDir("od-tar-");
  mkdirSync(join(temp.path, LONG, ".."), { recursive: true });
  writeFileSync(join(temp.path, LONG), "deep\n");
  writeFileSync(join(temp.path, HOSTILE), "hostile\n");
  writeFileSync(join(temp.path, "-n"), new Uint8Array([0, 1, 2]));
  symlinkSync("t".repeat(150), join(temp.path, "link"));
  const names = ["./-n", `./${HOSTILE}`, `./${LONG}`, "./link"].join("\0");
  return execFileSync("tar", [`--format=${format}`, "--null", "--no-recursion", "-T", "-", "-cf", "-"], { cwd: temp.path, input: names });
}

describe("framed sections", () => {
  test("sections in order, empty ones included; a cut or malformed output is undefined", () => {
    const output = bytes("3\0abc0\0" + "5\0a\0b\0c");
    expect(readSections(output)?.map((s) => new TextDecoder().decode(s))).toEqual(["abc", "", "a\0b\0c"]);
    expect(readSections(output.subarray(0, output.length - 1))).toBeUndefined();
    expect(readSections(bytes("x\0abc"))).toBeUndefined();
    expect(readSections(new Uint8Array())).toEqual([]);
    expect(nulRecords(bytes("a\0b c\0"))).toEqual(["a", "b c"]);
  });
});

describe("tar entries", () => {
  for (const format of ["gnu", "pax"] as const) {
    test(`${format}: files, long and hostile names, long symlink targets`, () => {
      const entries = readTarEntries(tarOf(format));
      expect([...entries.keys()]).toEqual(["./-n", `./${HOSTILE}`, `./${LONG}`, "./link"]);
      expect(entries.get(`./${LONG}`)).toEqual({ kind: "file", bytes: bytes("deep\n") });
      expect(entries.get(`./${HOSTILE}`)).toEqual({ kind: "file", bytes: bytes("hostile\n") });
      expect(entries.get("./link")).toEqual({ kind: "symlink", target: "t".repeat(150) });
    });
  }

  test("a stream cut anywhere keeps the entries before the cut, whole", () => {
    const tar = tarOf("gnu");
    for (let cut = 0; cut < tar.length; cut += 97) {
      for (const [name, entry] of readTarEntries(tar.subarray(0, cut))) expect(readTarEntries(tar).get(name)).toEqual(entry);
    }
    expect(readTarEntries(tar.subarray(0, 700)).size).toBe(1);
  });
});

describe("contents read from a snapshot", () => {
  test("kept files are text or binary, symlinks their target, the rest unknown; unseen paths are not there", () => {
    const stat = bytes(["kf 3 ./-n", `kf 8 ./${HOSTILE}`, "kl 150 ./link", `kf 5 ./${LONG}`, "uf 2000000 ./big.bin", "ud 4096 ./submodule", ""].join("\0"));
    const contents = readContents(stat, tarOf("gnu").subarray(0, 2048));
    expect(Object.fromEntries(contents)).toEqual({
      "-n": { kind: "binary" },
      [HOSTILE]: { kind: "text", text: "hostile\n" },
      link: { kind: "unknown" }, // past the cut
      [LONG]: { kind: "unknown" },
      "big.bin": { kind: "unknown" },
      submodule: { kind: "unknown" },
    });
  });

  test("index contents: whole blobs by id, a missing or cut one unknown, a submodule absent", () => {
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    const c = "c".repeat(40);
    const index = bytes([`100644 ${a} 0\tsrc/a.ts`, `100644 ${b} 0\tbig.bin`, `160000 ${c} 0\tsub`, `100644 ${a} 2\tconflict.txt`, ""].join("\0"));
    const blobs = bytes(`${a} blob 6\nhello\n\n${b} blob 10\nab`);
    expect(Object.fromEntries(readIndexContents(index, blobs))).toEqual({
      "src/a.ts": { kind: "text", text: "hello\n" },
      "big.bin": { kind: "unknown" },
      sub: { kind: "absent" },
    });
  });
});

describe("the snapshot script's tool check", () => {
  test("a sed without -z (busybox's) stops it with exit 6 instead of a silently empty snapshot", () => {
    using temp = tempDir("od-snapshot-tools-");
    const bin = join(temp.path, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "sed"), `#!/bin/sh\ncase " $* " in *" -z "*) echo "sed: invalid option -- 'z'" >&2; exit 1 ;; esac\nexec /usr/bin/sed "$@"\n`, { mode: 0o755 });
    writeFileSync(join(temp.path, "a.txt"), "a\n");
    const run = (path: string) => spawnSync("sh", ["-s"], { input: scriptFraming(SNAPSHOT_BEFORE_SCRIPT, [temp.path, "1048577", "8388608", "5000"]), env: { PATH: path } });
    expect(run(`${bin}:/usr/bin:/bin`).status).toBe(6);
    const gnu = run("/usr/bin:/bin");
    expect(gnu.status).toBe(0);
    expect(readSections(gnu.stdout)?.map((s) => new TextDecoder().decode(s)).slice(0, 1)).toEqual(["walk"]);
  });
});

describe("the snapshot script in a git work tree", () => {
  test("it only looks: stale file stamps are not refreshed into the index (no index.lock taken)", () => {
    using temp = tempDir("od-snapshot-nolock-");
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: temp.path, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    writeFileSync(join(temp.path, "a.txt"), "a\n");
    git("add", "-A");
    git("commit", "-q", "-m", "start");
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(temp.path, "a.txt"), later, later);
    const before = readFileSync(join(temp.path, ".git", "index"));
    const run = spawnSync("sh", ["-s"], { input: scriptFraming(SNAPSHOT_BEFORE_SCRIPT, [temp.path, "1048577", "8388608", "5000"]), env: { PATH: process.env.PATH } });
    expect(run.status).toBe(0);
    expect(readSections(run.stdout)?.map((s) => new TextDecoder().decode(s)).slice(0, 1)).toEqual(["git"]);
    expect(readFileSync(join(temp.path, ".git", "index")).equals(before)).toBe(true);
  });
});
