// Issue #36, items 3 and 6: what detection asks on each machine follows that machine's settings. Whether an agent's own
// sandbox can start there (codex: `codex sandbox -- true`) is said before a run fails at its first command, unless that
// machine's setting turns the sandbox off; and a slow machine gets the probe limits its key was given.
import { describe, expect, test } from "bun:test";
import { detectAgent, timeoutsOn, type DetectionDeps } from "../../server/runtimes/detection.ts";
import { codexAgentDef } from "../../server/runtimes/defs/codex.ts";
import type { ProbeResult, ProbeRunner } from "../../server/runtimes/probe.ts";
import { remoteAgentLaunch } from "../../server/remote/remote-run-inputs.ts";

const BWRAP = "bwrap: No permissions to create a new namespace, likely because the kernel does not allow non-privileged user namespaces.";

/** A machine where codex answers every probe, and its sandbox probe as `sandbox` says; the probes it got in `asked`. */
function machine(sandbox: ProbeResult, remote?: { where: string; key: string }) {
  const asked: string[][] = [];
  const runProbe: ProbeRunner = async (argv) => {
    asked.push(argv.slice(1));
    if (argv[1] === "sandbox") return sandbox;
    return { kind: "exited", code: 0, signal: null, stdout: argv[1] === "--version" ? "codex-cli 0.171.0" : "", stderr: "", ms: 1, truncated: false };
  };
  const launch = () => remoteAgentLaunch(codexAgentDef());
  const deps = (extra: Partial<DetectionDeps> = {}): DetectionDeps => ({
    env: { PATH: "/usr/bin" },
    runProbe,
    remote: { launch, where: remote?.where ?? "od-test-host", key: remote?.key ?? "ssh://od-test-host" },
    ...extra,
  });
  return { asked, deps };
}

const exited = (code: number, stderr = ""): ProbeResult => ({ kind: "exited", code, signal: null, stdout: "", stderr, ms: 3, truncated: false });
const sandboxAsked = (asked: string[][]) => asked.filter((argv) => argv[0] === "sandbox");

describe("codex's sandbox, probed on each machine", () => {
  test("a sandbox that cannot start there is a warning naming the machine, bubblewrap's line and the setting for that machine", async () => {
    const { asked, deps } = machine(exited(1, `Error: ${BWRAP}\n`), { where: "docker container od-box", key: "docker://od-box" });
    const { info } = await detectAgent(codexAgentDef(), deps());
    expect(sandboxAsked(asked)).toEqual([["sandbox", "--", "true"]]);
    expect(info.state).toBe("available");
    const warning = info.diagnostics.find((d) => d.reason === "sandbox-unavailable");
    expect(warning).toMatchObject({ severity: "warning" });
    expect(warning?.message).toContain("Codex's own sandbox cannot start on docker container od-box");
    expect(warning?.message).toContain("user namespaces");
    expect(warning?.detail).toContain(BWRAP.slice(0, 60));
    expect(warning?.detail).toContain('OD_CODEX_SANDBOX=danger-full-access for this machine (app-config `machineEnv` under "docker://od-box")');
    expect(info.probeMs.sandbox).toBe(3);
  });

  test("a sandbox that starts says nothing", async () => {
    const { asked, deps } = machine(exited(0));
    const { info } = await detectAgent(codexAgentDef(), deps());
    expect(sandboxAsked(asked)).toHaveLength(1);
    expect(info.diagnostics).toEqual([]);
  });

  test("a failure that is not the sandbox's own (a codex without the subcommand) is not reported as one", async () => {
    const { deps } = machine(exited(2, "error: unrecognized subcommand 'sandbox'\n"));
    const { info } = await detectAgent(codexAgentDef(), deps());
    expect(info.diagnostics.filter((d) => d.reason === "sandbox-unavailable")).toEqual([]);
  });

  test("the machine's own setting runs codex there without its sandbox: nothing to probe, nothing to warn about", async () => {
    const { asked, deps } = machine(exited(1, BWRAP));
    const machineEnv = (key: string) => (key === "ssh://od-test-host" ? { OD_CODEX_SANDBOX: "danger-full-access" } : undefined);
    const { info } = await detectAgent(codexAgentDef(), deps({ machineEnv }));
    expect(sandboxAsked(asked)).toEqual([]);
    expect(info.diagnostics).toEqual([]);
    // Another machine's setting is not this one's.
    const other = machine(exited(1, BWRAP));
    const { info: there } = await detectAgent(codexAgentDef(), other.deps({ machineEnv: (key) => (key === "docker://elsewhere" ? { OD_CODEX_SANDBOX: "danger-full-access" } : undefined) }));
    expect(there.diagnostics.map((d) => d.reason)).toEqual(["sandbox-unavailable"]);
  });

  test("a run's quick detection (od run) does not wait for it", async () => {
    const { asked, deps } = machine(exited(1, BWRAP));
    await detectAgent(codexAgentDef(), deps({ forRun: true }));
    expect(sandboxAsked(asked)).toEqual([]);
  });
});

describe("probe limits given per machine", () => {
  /** A machine whose codex takes `versionTakesMs` to answer --version; the limits each probe got in `limits`. */
  function slowMachine(versionTakesMs: number, key: string) {
    const limits: number[] = [];
    const runProbe: ProbeRunner = async (argv, options) => {
      if (argv[1] !== "--version") return exited(0);
      limits.push(options.timeoutMs);
      if (options.timeoutMs < versionTakesMs) return { kind: "timeout", stdout: "", stderr: "", ms: options.timeoutMs };
      return { kind: "exited", code: 0, signal: null, stdout: "codex-cli 0.171.0", stderr: "", ms: versionTakesMs, truncated: false };
    };
    const deps: DetectionDeps = { env: {}, runProbe, timeouts: { versionMs: 500 }, remote: { launch: () => remoteAgentLaunch(codexAgentDef()), where: key, key } };
    return { limits, deps };
  }

  test("a slow host gets the limits its key was given; another machine keeps the caller's", async () => {
    const perMachine = (key: string) => (key === "ssh://slow-box" ? { versionMs: 5000 } : undefined);
    const slow = slowMachine(2000, "ssh://slow-box");
    const { info } = await detectAgent(codexAgentDef(), { ...slow.deps, machineProbeTimeouts: perMachine });
    expect(slow.limits).toEqual([5000]);
    expect(info.version).toBe("codex-cli 0.171.0");

    const other = slowMachine(2000, "ssh://other-box");
    const { info: there } = await detectAgent(codexAgentDef(), { ...other.deps, machineProbeTimeouts: perMachine });
    // Timed out, then once more at twice the limit: still short of 2 s.
    expect(other.limits).toEqual([500, 1000]);
    expect(there.diagnostics.map((d) => d.reason)).toContain("probe-timeout");
  });

  test("this machine's limits are the ones under `local`", async () => {
    const local = slowMachine(2000, "local");
    const deps: DetectionDeps = { ...local.deps, machineProbeTimeouts: (key) => (key === "local" ? { versionMs: 3000 } : undefined) };
    delete deps.remote;
    expect(timeoutsOn(deps, "local")).toEqual({ versionMs: 3000 });
    expect(timeoutsOn(deps, "ssh://box")).toEqual({ versionMs: 500 });
  });
});
