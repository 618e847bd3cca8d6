/**
 * Checks of the installers that need no download: the generated version block is current, the shell script parses,
 * and the Windows scripts keep their contract. No PowerShell is installable here (no `pwsh` package in the
 * distribution's archive), so the .ps1/.cmd get a structural check; a real parse runs when `pwsh` is on PATH.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { generateInstallers, INSTALLERS, installerPath, renderInstaller } from "../../scripts/gen-dsh-installers.ts";
import { DSH_VERSION_POLICY, isSupportedDshVersion } from "../../server/dsh/version-policy.ts";
import { DshVersionPolicy } from "../../server/dsh/version-policy-schema.ts";

const read = (file: string) => readFileSync(installerPath(file), "utf8");

test("the installers carry the current version policy (gen --check)", () => {
  expect(generateInstallers({ check: true })).toEqual([]);
});

test("a policy change rewrites every generated block", () => {
  const policy = { ...DSH_VERSION_POLICY, node: "24.99.0", dsh: "0.1.3", bootstrapVersion: 7 };
  for (const flavour of INSTALLERS) {
    const next = renderInstaller(read(flavour.file), flavour, policy);
    expect(next).toContain(flavour.file === "install-dsh.cmd" ? "OD_DSH_BOOTSTRAP_VERSION=7" : "24.99.0");
    expect(renderInstaller(next, flavour, DSH_VERSION_POLICY)).toBe(read(flavour.file));
  }
});

test("the embedded policy file matches its schema (od trusts it at start-up)", () => {
  expect(DshVersionPolicy.parse(DSH_VERSION_POLICY)).toEqual(DSH_VERSION_POLICY);
});

test("the pinned dsh is one the def accepts", () => {
  expect(isSupportedDshVersion(DSH_VERSION_POLICY.dsh)).toBe(true);
  expect(isSupportedDshVersion("dsh 0.1.1-rc.9")).toBe(true);
  expect(isSupportedDshVersion("0.1.0-rc.5")).toBe(false);
  expect(isSupportedDshVersion("0.2.0")).toBe(false);
});

test("install-dsh.sh parses (sh -n)", () => {
  const r = spawnSync("sh", ["-n", installerPath("install-dsh.sh")], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
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

test("install-dsh.ps1: structure (and a real parse when pwsh exists)", () => {
  const ps1 = read("install-dsh.ps1");
  expect(balanced(ps1)).toBe(true);
  expect(ps1).toContain("param([switch]$NoLaunch)");
  expect(ps1).toContain("$env:OD_DSH_BASE_URL");
  expect(ps1.indexOf("Assert-Checksum (Join-Path")).toBeLessThan(ps1.indexOf("Expand-Archive -Path"));
  expect(ps1).not.toMatch(/npm(\.cmd)? (install|i) (-g|--global)/);
  const pwsh = spawnSync("pwsh", ["-NoProfile", "-Command", "$null"], { encoding: "utf8" });
  if (pwsh.status === 0) {
    const parse = spawnSync(
      "pwsh",
      ["-NoProfile", "-Command", `$e=$null; [void][System.Management.Automation.Language.Parser]::ParseFile('${installerPath("install-dsh.ps1")}',[ref]$null,[ref]$e); if ($e.Count) { $e; exit 1 }`],
      { encoding: "utf8" },
    );
    expect(parse.stdout + parse.stderr).toBe("");
    expect(parse.status).toBe(0);
  }
});

test("install-dsh.cmd: CRLF, downloads the .ps1 and runs it with the caller's arguments", () => {
  const cmd = read("install-dsh.cmd");
  expect(cmd.split("\n").every((line, i, all) => i === all.length - 1 || line.endsWith("\r"))).toBe(true);
  expect(cmd).toContain('curl.exe -fsSL "%OD_DSH_PS1_URL%" -o "%OD_DSH_PS1%"');
  expect(cmd).toMatch(/powershell\.exe -NoProfile -ExecutionPolicy Bypass -File "%OD_DSH_PS1%" %\*/);
  expect(cmd).toContain("exit /b %OD_DSH_EXIT%");
});

test("all three installers serve the same artifact names", () => {
  const sh = read("install-dsh.sh");
  const ps1 = read("install-dsh.ps1");
  for (const text of [sh, ps1]) {
    expect(text).toContain("SHA256SUMS");
    expect(text).toMatch(/dsh-\$\{?(OD_DSH_DSH_VERSION|DshVersion)\}?\.tgz/);
    expect(text).toMatch(/pnpm-\$\{?(OD_DSH_PNPM_VERSION|PnpmVersion)\}?\.tgz/);
  }
});
