// `od run` reuses the last probe of an unchanged agent executable (agents-cache.json) and probes again when it changes.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { childOutput } from "../support/child-output.ts";
import { writeShim } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const textFixture = join(root, "tests", "fixtures", "copilot", "text.jsonl");
const TIMEOUT = 60_000;

/** One `od run --json` in `dir` (bin/, project/, data/ inside it); returns its exit code and the probes it ran. */
async function odRun(dir: string, extraArgs: string[] = []): Promise<{ code: number | null; probes: string[][]; stdout: string }> {
  const probeLog = join(dir, "probes.jsonl");
  rmSync(probeLog, { force: true });
  const child = await spawnChild({
    argv: [process.execPath, join(root, "server", "main.ts"), "run", "--agent", "copilot", "--json", "--project", join(dir, "project"), "--data-dir", join(dir, "data"), ...extraArgs, "hello"],
    env: { PATH: `${join(dir, "bin")}:/usr/bin:/bin`, HOME: dir, FAKE_CLI_SCRIPT: `@${join(dir, "script.json")}`, FAKE_CLI_PROBE_LOG: probeLog },
    stdin: "pipe",
  });
  child.stdin!.end();
  const { stdout, code } = await childOutput(child);
  const probes = existsSync(probeLog) ? readFileSync(probeLog, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as string[]) : [];
  return { code, probes, stdout };
}

/** bin/ with a copilot shim, an empty project/, and the fake CLI's script, in `dir`. */
function setUp(dir: string): void {
  mkdirSync(join(dir, "bin"));
  mkdirSync(join(dir, "project"));
  writeShim(join(dir, "bin"), "copilot");
  writeFileSync(join(dir, "script.json"), JSON.stringify([{ readAll: true }, { outFile: textFixture }]));
}

describe("od run and the detection cache", () => {
  test("a second run of the same executable starts without probing; a changed executable is probed again", async () => {
    using dir = tempDir("od-run-cache-");
    setUp(dir.path);

    const first = await odRun(dir.path);
    expect(first.code).toBe(0);
    expect(first.probes.some((argv) => argv[0] === "--version")).toBe(true);

    const second = await odRun(dir.path);
    expect(second.code).toBe(0);
    expect(second.probes).toEqual([]);
    expect(second.stdout).toContain('"status":"succeeded"');

    // Another build of the CLI (its size differs): probed again, then reused again.
    writeFileSync(join(dir.path, "bin", "copilot"), `${readFileSync(join(dir.path, "bin", "copilot"), "utf8")}# upgraded\n`);
    const third = await odRun(dir.path);
    expect(third.code).toBe(0);
    expect(third.probes.some((argv) => argv[0] === "--version")).toBe(true);
    expect((await odRun(dir.path)).probes).toEqual([]);
  }, TIMEOUT);

  test("a run that names a model reuses the last probe too, when the CLI lists no models of its own", async () => {
    using dir = tempDir("od-run-cache-");
    setUp(dir.path);
    expect((await odRun(dir.path)).code).toBe(0);
    // Copilot's models are the def's own list: nothing to discover, so nothing to probe.
    const named = await odRun(dir.path, ["--model", "gpt-5"]);
    expect(named.code).toBe(0);
    expect(named.probes).toEqual([]);
    expect(named.stdout).toContain('"status":"succeeded"');
  }, TIMEOUT);
});
