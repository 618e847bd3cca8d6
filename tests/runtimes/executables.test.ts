/** Executable resolution as pure functions of env + platform + a fake file system (Windows rules run on Linux). */
import { describe, expect, test } from "bun:test";
import {
  binOverrideEnvVar,
  envGet,
  executableCandidates,
  resolveExecutable,
  searchDirs,
  type FileState,
} from "../../server/runtimes/executables.ts";
import { launchArgv, resolveAgentLaunch } from "../../server/runtimes/launch.ts";
import { testDef } from "../support/agents-fake-cli.ts";
import { baseAgentDefs } from "../../server/runtimes/registry.ts";

const fs = (files: Record<string, FileState>) => (path: string): FileState => files[path] ?? "missing";

describe("override env var names", () => {
  test("derived from the id, or the def's own", () => {
    expect(binOverrideEnvVar({ id: "codex" })).toBe("CODEX_BIN");
    expect(binOverrideEnvVar({ id: "cursor-agent" })).toBe("CURSOR_AGENT_BIN");
    expect(binOverrideEnvVar({ id: "deepseek-harness", binEnvVar: "DSH_BIN" })).toBe("DSH_BIN");
    // Each run of other characters is one `_`, at the start too; what the id's capitals are is kept.
    expect(binOverrideEnvVar({ id: "my--tool.v2" })).toBe("MY_TOOL_V2_BIN");
    expect(binOverrideEnvVar({ id: "-x_y-" })).toBe("_X_Y__BIN");
    expect(binOverrideEnvVar({ id: "straße" })).toBe("STRASSE_BIN");
    expect(binOverrideEnvVar({ id: "a😀b" })).toBe("A_B_BIN");
  });

  test("every shipped def's name is its id in capitals with one _ for each run of other characters", () => {
    for (const def of baseAgentDefs()) {
      expect(binOverrideEnvVar(def)).toBe(def.binEnvVar ?? `${def.id.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_BIN`);
    }
  });
});

describe("POSIX", () => {
  const env = { PATH: "/usr/bin:/opt/bin", HOME: "/home/u" };
  test("search dirs: PATH, then user toolchains incl. the active nvm/fnm bins, no duplicates", () => {
    const dirs = searchDirs({ ...env, PATH: "/usr/bin:/home/u/.local/bin", NVM_BIN: "/home/u/.nvm/versions/node/v22/bin", FNM_MULTISHELL_PATH: "/run/fnm/123" }, "linux", "/home/u");
    expect(dirs).toEqual([
      "/usr/bin", "/home/u/.local/bin", "/home/u/.npm-global/bin", "/home/u/.bun/bin", "/home/u/.volta/bin",
      "/home/u/.cargo/bin", "/home/u/.nvm/versions/node/v22/bin", "/run/fnm/123/bin", "/home/u/.local/share/mise/shims",
    ]);
  });
  test("override → PATH → toolchain dir → fallbackBins", () => {
    const def = testDef("tool", { bin: "tool", fallbackBins: ["tool-alt"] });
    const lookup = { env, platform: "linux" as const, homeDir: "/home/u" };
    expect(resolveExecutable(def, { ...lookup, statFile: fs({ "/opt/bin/tool": "executable", "/custom/tool": "executable" }), env: { ...env, TOOL_BIN: "/custom/tool" } })).toMatchObject({ path: "/custom/tool", source: "override" });
    expect(resolveExecutable(def, { ...lookup, statFile: fs({ "/opt/bin/tool": "executable" }) })).toMatchObject({ path: "/opt/bin/tool", source: "path" });
    expect(resolveExecutable(def, { ...lookup, statFile: fs({ "/home/u/.bun/bin/tool": "executable" }) })).toMatchObject({ path: "/home/u/.bun/bin/tool" });
    expect(resolveExecutable(def, { ...lookup, statFile: fs({ "/usr/bin/tool-alt": "executable" }) })).toMatchObject({ path: "/usr/bin/tool-alt", source: "fallback" });
    expect(resolveExecutable(def, { ...lookup, statFile: fs({}) })).toMatchObject({ found: false });
  });
  test("an executable later on PATH beats a non-executable earlier one; a lone non-executable is still reported", () => {
    const def = testDef("tool", { bin: "tool" });
    const lookup = { env, platform: "linux" as const, homeDir: "/home/u" };
    expect(resolveExecutable(def, { ...lookup, statFile: fs({ "/usr/bin/tool": "not-executable", "/opt/bin/tool": "executable" }) })).toMatchObject({ path: "/opt/bin/tool", executable: true });
    expect(resolveExecutable(def, { ...lookup, statFile: fs({ "/usr/bin/tool": "not-executable" }) })).toMatchObject({ path: "/usr/bin/tool", executable: false });
  });
  test("an override naming nothing runnable is an invalid override", () => {
    const result = resolveExecutable(testDef("tool", { bin: "tool" }), { env: { ...env, TOOL_BIN: "/gone/tool" }, platform: "linux", homeDir: "/home/u", statFile: fs({ "/usr/bin/tool": "executable" }) });
    expect(result).toMatchObject({ found: false, invalidOverride: { envVar: "TOOL_BIN", value: "/gone/tool" } });
  });
});

describe("Windows rules (as pure functions)", () => {
  const env = { Path: "C:\\tools;C:\\npm", PATHEXT: ".COM;.EXE;.BAT;.CMD", USERPROFILE: "C:\\Users\\u", ComSpec: "C:\\Windows\\system32\\cmd.exe" };
  test("env lookup is case-insensitive on win32 only", () => {
    expect(envGet(env, "PATH", "win32")).toBe("C:\\tools;C:\\npm");
    expect(envGet(env, "PATH", "linux")).toBeUndefined();
  });
  test(".exe is tried before the PATHEXT shims; a name with an extension is used as is", () => {
    expect(executableCandidates("codex", env, "win32")).toEqual(["codex.exe", "codex.com", "codex.bat", "codex.cmd"]);
    expect(executableCandidates("codex.cmd", env, "win32")).toEqual(["codex.cmd"]);
    expect(executableCandidates("codex", env, "linux")).toEqual(["codex"]);
  });
  test("a native .exe wins over a .cmd shim in the same dir; dirs split on ';' and de-duplicated case-insensitively", () => {
    const def = testDef("codex", { bin: "codex" });
    const files = fs({ "C:\\npm\\codex.cmd": "executable", "C:\\npm\\codex.exe": "executable" });
    expect(resolveExecutable(def, { env: { ...env, Path: "C:\\npm;c:\\NPM" }, platform: "win32", homeDir: "C:\\Users\\u", statFile: files })).toMatchObject({ path: "C:\\npm\\codex.exe" });
    expect(searchDirs({ ...env, Path: "C:\\npm;c:\\NPM" }, "win32", "C:\\Users\\u").filter((d) => d.toLowerCase() === "c:\\npm")).toHaveLength(1);
  });
  test("a .cmd shim launches through cmd.exe /d /s /c", () => {
    const def = testDef("codex", { bin: "codex", env: { FOO: "1" } });
    const resolved = resolveAgentLaunch(def, { env, platform: "win32", homeDir: "C:\\Users\\u", statFile: fs({ "C:\\npm\\codex.cmd": "executable" }) });
    if (!resolved.ok) throw new Error("expected a launch");
    expect(launchArgv(resolved.launch, ["--version"])).toEqual(["C:\\Windows\\system32\\cmd.exe", "/d", "/s", "/c", "C:\\npm\\codex.cmd", "--version"]);
    expect(resolved.launch.env.FOO).toBe("1");
  });
});
