// The tar stream a remote run's inputs travel in: the system's tar unpacks exactly the files and folders written,
// hostile and long names included.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectChunks, tarChunks } from "../../server/machines/tar-writer.ts";
import { tempDir } from "../support/temp.ts";

async function unpack(temp: { path: string }, entries: Parameters<typeof tarChunks>[0]): Promise<string> {
  const archive = join(temp.path, "a.tar");
  writeFileSync(archive, await collectChunks(tarChunks(entries)));
  const out = join(temp.path, "out");
  execFileSync("mkdir", [out]);
  execFileSync("tar", ["-xf", archive, "-C", out]);
  return out;
}

describe("tarChunks", () => {
  test("files and folders unpack with their bytes and modes; hostile and long names stay one member each", async () => {
    const hostile = "it's $(touch pwned) `x`; * -rf ünï\nline.png";
    const long = `deep/${"a".repeat(120)}/${"b".repeat(90)}.md`;
    const binary = new Uint8Array(1500).map((_, i) => (i * 7) % 256);
    using temp = tempDir("od-tar-");
    const out = await unpack(temp, [
      { path: "skills", mode: 0o700 },
      { path: "skills/one", mode: 0o700 },
      { path: "skills/one/SKILL.md", mode: 0o600, data: new TextEncoder().encode("# one\n") },
      { path: `images/${hostile}`, mode: 0o600, data: async () => binary },
      { path: long, mode: 0o600, data: new TextEncoder().encode("long") },
      { path: "empty.txt", mode: 0o644, data: new Uint8Array(0) },
    ]);
    expect(readFileSync(join(out, "skills/one/SKILL.md"), "utf8")).toBe("# one\n");
    expect(new Uint8Array(readFileSync(join(out, "images", hostile)))).toEqual(binary);
    expect(readdirSync(join(out, "images"))).toEqual([hostile]);
    expect(readFileSync(join(out, long), "utf8")).toBe("long");
    expect(readFileSync(join(out, "empty.txt"), "utf8")).toBe("");
    expect(statSync(join(out, "skills/one/SKILL.md")).mode & 0o777).toBe(0o600);
    expect(readdirSync(out).sort()).toEqual(["deep", "empty.txt", "images", "skills"]);
    expect(readdirSync(join(out, "..")).sort()).toEqual(["a.tar", "out"]);
  });

  test("absolute paths and .. segments are refused before anything is written", async () => {
    for (const path of ["/etc/passwd", "a/../../x", ".."]) {
      await expect(collectChunks(tarChunks([{ path, mode: 0o600, data: new Uint8Array(1) }]))).rejects.toThrow("not a relative member path");
    }
  });
});
