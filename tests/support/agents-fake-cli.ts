/** Fake CLIs for detection tests: small POSIX shell scripts written into a temp bin dir. */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";

/** Write `#!/bin/sh` + body as `dir/name`; executable unless `mode` says otherwise. */
export function writeFakeCli(dir: string, name: string, body: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
  return path;
}

/** A minimal def for tests: plain stream, `--version`, default model only. */
export function testDef(id: string, extra: Partial<RuntimeAgentDef> = {}): RuntimeAgentDef {
  return {
    id,
    name: `Test ${id}`,
    bin: `od-fake-${id}`,
    versionArgs: ["--version"],
    fallbackModels: [{ id: "default", label: "Default (CLI config)" }],
    streamFormat: "plain",
    buildArgs: () => [],
    ...extra,
  };
}

/** PATH of a hermetic detection env: the fake bin dir first, then the system dirs the scripts need. */
export function fakePath(binDir: string): string {
  return `${binDir}:/usr/bin:/bin`;
}
