/**
 * A temp bin folder of fake agent CLIs for a real od process: each shim is named like a real CLI and runs
 * tests/fakes/fake-cli.ts with its own script file, so one daemon can hold a fast claude, a slow one and so on,
 * and a test can swap a fake's script between runs.
 */
import { chmodSync, mkdirSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, FAKE_CLI, type FakeStep } from "../../support/fake-agents.ts";

/** How one fake answers detection probes. */
export type FakeAgentOptions = {
  /** Milliseconds before it answers `--version`. */
  versionDelayMs?: number;
  version?: string;
};

export type FakeAgentPath = {
  /** The bin folder (put it first on the daemon's PATH). */
  dir: string;
  /** `PATH` for the daemon: the fakes, then the system folders. */
  path: string;
  /** Replace the steps `name` runs on its next invocation. */
  script(name: string, steps: FakeStep[]): void;
  /** Ledger lines (argv, cwd, stdin) every invocation of every fake appended. */
  ledger(): Record<string, unknown>[];
  /** How many detection probes (version, help, auth) the fakes have answered. */
  probes(): number;
};

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Writes one shim per entry of `agents` into `<root>/bin`; each starts with an empty script. */
export function fakeAgentPath(root: string, agents: Record<string, FakeAgentOptions>): FakeAgentPath {
  const dir = join(root, "bin");
  mkdirSync(dir, { recursive: true });
  const ledgerPath = join(root, "ledger.jsonl");
  const probeLogPath = join(root, "probes.jsonl");
  const scriptPath = (name: string) => join(root, `${name}.script.json`);
  for (const [name, options] of Object.entries(agents)) {
    writeFileSync(scriptPath(name), "[]");
    const env = {
      FAKE_CLI_SCRIPT: `@${scriptPath(name)}`,
      FAKE_CLI_LEDGER: ledgerPath,
      FAKE_CLI_PROBE_LOG: probeLogPath,
      FAKE_CLI_VERSION: options.version ?? "1.0.0",
      FAKE_CLI_VERSION_DELAY_MS: String(options.versionDelayMs ?? 0),
    };
    const exports = Object.entries(env).map(([key, value]) => `export ${key}=${shellQuote(value)}`);
    const shim = join(dir, name);
    writeFileSync(shim, `#!/bin/sh\n${exports.join("\n")}\nexec ${shellQuote(BUN)} ${shellQuote(FAKE_CLI)} "$@"\n`);
    chmodSync(shim, 0o755);
  }
  return {
    dir,
    path: `${dir}:/usr/bin:/bin`,
    script: (name, steps) => writeFileSync(scriptPath(name), JSON.stringify(steps)),
    probes: () => (existsSync(probeLogPath) ? readFileSync(probeLogPath, "utf8").split("\n").filter(Boolean).length : 0),
    ledger: () =>
      existsSync(ledgerPath)
        ? readFileSync(ledgerPath, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [],
  };
}
