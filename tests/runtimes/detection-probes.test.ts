// Probe details learned from the real CLIs: versions on stderr (pi), help texts cut off by the timeout.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { detectAgent, type DetectionDeps } from "../../server/runtimes/detection.ts";
import { fakePath, testDef, writeFakeCli } from "../support/agents-fake-cli.ts";
import { tempDir } from "../support/temp.ts";

const tmp = tempDir("od-detect-probes-");
afterAll(() => tmp[Symbol.dispose]());
const bin = join(tmp.path, "bin");
mkdirSync(bin, { recursive: true });
const deps = (): DetectionDeps => ({ env: { PATH: fakePath(bin), HOME: tmp.path }, homeDir: tmp.path, timeouts: { versionMs: 1000, helpMs: 400 } });

writeFakeCli(bin, "od-fake-stderr-version", `[ "$1" = --version ] && echo "0.73.1" >&2`);
writeFakeCli(bin, "od-fake-slow-help", `case "$1" in --version) echo 1.0;; --help) echo "  --trust"; sleep 5;; esac`);

test("a version printed on stderr is read (pi prints its version there)", async () => {
  const { info } = await detectAgent(testDef("stderr-version"), deps());
  expect(info.version).toBe("0.73.1");
});

test("a help text cut off by the timeout keeps the flags it shows and leaves the others unknown, not absent", async () => {
  const def = testDef("slow-help", { helpArgs: ["--help"], capabilityFlags: { "--trust": "trust", "--workspace": "workspace" } });
  const { capabilities } = await detectAgent(def, deps());
  expect(capabilities).toEqual({ trust: true });
});

test("forRun probes availability and capabilities only: no auth probe, no model discovery", async () => {
  writeFakeCli(bin, "od-fake-counted", `echo "$@" >> "${join(tmp.path, "calls.log")}"; case "$1" in --version) echo 2.0;; --help) echo "  --trust";; esac`);
  const def = testDef("counted", {
    helpArgs: ["--help"],
    capabilityFlags: { "--trust": "trust" },
    authProbe: { args: ["status"] },
    listModels: { args: ["models"], parse: () => [{ id: "m", label: "m" }] },
  });
  const { info, capabilities } = await detectAgent(def, { ...deps(), forRun: true });
  expect(info.state).toBe("available");
  expect(capabilities).toEqual({ trust: true });
  const calls = (await Bun.file(join(tmp.path, "calls.log")).text()).trim().split("\n").sort();
  expect(calls).toEqual(["--help", "--version"]);
});

test("forRun reuses the last probe of the same executable: no probe, and the probes' env (with the configured part) is not built", async () => {
  writeFakeCli(bin, "od-fake-reused", `echo "$@" >> "${join(tmp.path, "reused-calls.log")}"; case "$1" in --version) echo 3.0;; esac`);
  const def = testDef("reused");
  const configuredReads: string[] = [];
  const configuredEnv = (id: string) => (configuredReads.push(id), { OD_TEST_CONFIGURED: "1" });
  const first = await detectAgent(def, { ...deps(), forRun: true, configuredEnv });
  expect(first.info.version).toBe("3.0");
  expect(configuredReads).toEqual(["reused"]);
  const lastGood = { info: first.info, capabilities: first.capabilities, liveModels: first.liveModels, executable: first.executable! };
  const again = await detectAgent(def, { ...deps(), forRun: true, configuredEnv, lastGood: () => lastGood });
  expect(again.reused).toBe(true);
  expect(again.info.version).toBe("3.0");
  expect(configuredReads).toEqual(["reused"]);
  expect((await Bun.file(join(tmp.path, "reused-calls.log")).text()).trim().split("\n")).toEqual(["--version"]);
});

test("a run that names a model discovers the models (not auth), and reuses a last probe only when it has them", async () => {
  const log = join(tmp.path, "model-calls.log");
  writeFakeCli(bin, "od-fake-models", `echo "$@" >> "${log}"; case "$1" in --version) echo 4.0;; models) echo m1;; esac`);
  const def = testDef("models", { authProbe: { args: ["status"] }, listModels: { args: ["models"], parse: (out) => out.trim().split("\n").map((id) => ({ id, label: id })) } });
  const calls = async () => (await Bun.file(log).text()).trim().split("\n").sort();
  // What a plain run's probe keeps: no models.
  const plain = await detectAgent(def, { ...deps(), forRun: true });
  expect(plain.liveModels).toBeNull();
  const withoutModels = { info: plain.info, capabilities: plain.capabilities, liveModels: plain.liveModels, executable: plain.executable! };
  // A plain run reuses it; a run that names a model does not, and lists the models (no auth probe).
  expect((await detectAgent(def, { ...deps(), forRun: true, lastGood: () => withoutModels })).reused).toBe(true);
  const named = await detectAgent(def, { ...deps(), forRun: true, forRunWithModel: true, lastGood: () => withoutModels });
  expect(named.reused).toBeUndefined();
  expect(named.liveModels?.map((m) => m.id)).toContain("m1");
  expect(await calls()).toEqual(["--version", "--version", "models"]);
  // The next run that names a model reuses the probe that listed them: no CLI process at all.
  const withModels = { info: named.info, capabilities: named.capabilities, liveModels: named.liveModels, executable: named.executable! };
  const again = await detectAgent(def, { ...deps(), forRun: true, forRunWithModel: true, lastGood: () => withModels });
  expect(again.reused).toBe(true);
  expect(await calls()).toEqual(["--version", "--version", "models"]);
});
