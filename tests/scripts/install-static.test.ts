/**
 * Checks of the od installers that need no download: install.sh parses, both installers read the names
 * `build:release` writes, and install.ps1 keeps its contract. No PowerShell is installable here, so the .ps1 gets a
 * structural check (as install-dsh.ps1 does); a real parse runs when `pwsh` is on PATH.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RELEASE_TARGETS, releaseFileName, selectReleaseTargets } from "../../scripts/build-binary.ts";

const scripts = join(import.meta.dir, "..", "..", "scripts");
const read = (file: string) => readFileSync(join(scripts, file), "utf8");

test("install.sh parses (sh -n)", () => {
  const r = spawnSync("sh", ["-n", join(scripts, "install.sh")], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
});

test("both installers default to the project's releases and take OD_RELEASE_URL and OD_INSTALL_DIR", () => {
  for (const text of [read("install.sh"), read("install.ps1")]) {
    expect(text).toContain("https://open-design.ai/od/releases/latest");
    expect(text).toContain("OD_RELEASE_URL");
    expect(text).toContain("OD_INSTALL_DIR");
    expect(text).toContain("SHA256SUMS");
    expect(text).toContain("nothing was installed");
  }
});

test("the release names the installers ask for are the ones build:release writes", () => {
  expect(Object.keys(RELEASE_TARGETS).map(releaseFileName)).toEqual(["od-linux-x64", "od-linux-arm64", "od-darwin-x64", "od-darwin-arm64", "od-windows-x64.exe"]);
  expect(read("install.sh")).toContain('name="od-$(platform)"');
  expect(read("install.ps1")).toContain("$Name = 'od-windows-x64.exe'");
});

test("build:release --only builds just the named targets and refuses an unknown one", () => {
  expect(selectReleaseTargets(["--release"]).map(([name]) => name)).toEqual(Object.keys(RELEASE_TARGETS));
  expect(selectReleaseTargets(["--release", "--only", "linux-x64"])).toEqual([["linux-x64", "bun-linux-x64"]]);
  expect(selectReleaseTargets(["--only", "darwin-arm64,linux-x64"]).map(([name]) => name)).toEqual(["linux-x64", "darwin-arm64"]);
  expect(() => selectReleaseTargets(["--release", "--only", "plan9-mips"])).toThrow('got "plan9-mips"');
  expect(() => selectReleaseTargets(["--release", "--only"])).toThrow("--only takes release targets");
});

/** Strips strings and comments, then checks (), {} and [] balance: catches the typical broken edit. */
function balanced(ps1: string): boolean {
  const code = ps1
    .replace(/'[^']*'/g, "''")
    .replace(/"(?:`.|[^"`])*"/g, '""')
    .replace(/#.*$/gm, "");
  const pairs: Record<string, string> = { ")": "(", "}": "{", "]": "[" };
  const stack: string[] = [];
  for (const ch of code) {
    if (ch === "(" || ch === "{" || ch === "[") stack.push(ch);
    else if (ch in pairs && stack.pop() !== pairs[ch]) return false;
  }
  return stack.length === 0;
}

test("install.ps1: structure, verify before the move (and a real parse when pwsh exists)", () => {
  const ps1 = read("install.ps1");
  expect(balanced(ps1)).toBe(true);
  expect(ps1).toContain("param([string]$Dir)");
  expect(ps1.indexOf("Get-FileHash")).toBeLessThan(ps1.indexOf("Move-Item -Force $Staged $Target"));
  expect(ps1).toMatch(/finally \{\s+if \(Test-Path \$Stage\) \{ Remove-Item -Recurse -Force \$Stage \}/);
  const pwsh = spawnSync("pwsh", ["-NoProfile", "-Command", "$null"], { encoding: "utf8" });
  if (pwsh.status === 0) {
    const parse = spawnSync(
      "pwsh",
      ["-NoProfile", "-Command", `$e=$null; [void][System.Management.Automation.Language.Parser]::ParseFile('${join(scripts, "install.ps1")}',[ref]$null,[ref]$e); if ($e.Count) { $e; exit 1 }`],
      { encoding: "utf8" },
    );
    expect(parse.stdout + parse.stderr).toBe("");
    expect(parse.status).toBe(0);
  }
});
