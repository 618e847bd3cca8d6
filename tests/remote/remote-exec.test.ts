import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseLocation, type SshLocation } from "../../server/machines/machine-url.ts";
import { missingShell, runRemoteScript } from "../../server/machines/remote-exec.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(() => sshd?.close());

const context = () => ({ env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir });

describe("runRemoteScript over a real sshd", () => {
  test("hostile arguments reach the remote script as exactly those words", async () => {
    const words = ["it's", "$(touch /tmp/od-remote-pwned)", "`id`", "a;b", "a\nb", "*", "-rf", "ünï ✓"];
    const location = parseLocation(`ssh://${SSH_TEST_HOST}/tmp`) as SshLocation;
    const result = await runRemoteScript(location, `printf '%s\\0' "$@"`, words, context(), { timeoutMs: 30_000 });
    expect(result.kind).toBe("exited");
    if (result.kind !== "exited") return;
    expect(new TextDecoder().decode(result.stdout).split("\0").slice(0, -1)).toEqual(words);
  });

  test("a folder with a hostile name is found; the script's own exit code comes back", async () => {
    using temp = tempDir("od-remote-");
    const folder = join(temp.path, "we'ird $(x) ;dir");
    mkdirSync(folder);
    writeFileSync(join(folder, "f.txt"), "hello");
    const location = { kind: "ssh", host: SSH_TEST_HOST, path: folder } as const;
    const ok = await runRemoteScript(location, 'cat -- "$1/f.txt"', [folder], context(), { timeoutMs: 30_000 });
    expect(ok.kind === "exited" && new TextDecoder().decode(ok.stdout)).toBe("hello");
    const missing = await runRemoteScript(location, '[ -d "$1" ] || exit 3', [`${folder}-gone`], context(), { timeoutMs: 30_000 });
    expect(missing).toMatchObject({ kind: "exited", code: 3 });
  });

  test("stdin reaches the script byte for byte; a script that does not read it is no error", async () => {
    const location = parseLocation(`ssh://${SSH_TEST_HOST}/tmp`) as SshLocation;
    const body = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    async function* chunks() {
      for (let offset = 0; offset < body.length; offset += 65_536) yield body.subarray(offset, offset + 65_536);
    }
    const echoed = await runRemoteScript(location, "cat", [], context(), { timeoutMs: 30_000, stdin: chunks(), maxBytes: 1024 * 1024 });
    expect(echoed.kind === "exited" && echoed.stdout).toEqual(body);
    const ignored = await runRemoteScript(location, "exit 7", [], context(), { timeoutMs: 30_000, stdin: body });
    expect(ignored).toMatchObject({ kind: "exited", code: 7 });
  });

  test("an unreachable host is a typed result, fast", async () => {
    const started = Date.now();
    const result = await runRemoteScript({ kind: "ssh", host: "127.0.0.1", port: 1, path: "/" }, "true", [], context(), { timeoutMs: 30_000 });
    expect(result.kind).toBe("unreachable");
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test("an unknown host key is refused (no StrictHostKeyChecking=no)", async () => {
    // 127.0.0.1 by address is not in the known_hosts file (only the alias is): BatchMode cannot ask, so ssh refuses.
    // A fresh control folder: the alias's master connection (same address, port and user) must not be reused.
    using fresh = tempDir("od-ctl-");
    const result = await runRemoteScript({ kind: "ssh", host: "127.0.0.1", port: sshd.port, path: "/" }, "true", [], { ...context(), controlDir: fresh.path }, { timeoutMs: 30_000 });
    expect(result.kind).toBe("unreachable");
    expect(result.kind === "unreachable" && result.stderr).toMatch(/host key|known_hosts/i);
  });
});

describe("missingShell", () => {
  const box = { kind: "ssh" as const, host: "box", path: "/" };
  const dev = { kind: "docker" as const, container: "dev", path: "/" };
  test("names a missing sh in the words of docker and of each login shell; anything else is not that", () => {
    const said = {
      docker: 'OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in $PATH: unknown',
      bash: "bash: line 1: exec: sh: not found",
      dash: "sh: 1: exec: sh: not found",
      zsh: "zsh:1: command not found: sh",
      fish: "fish: Unknown command: sh",
      tcsh: "sh: Command not found.",
    };
    expect(missingShell(dev, 126, said.docker)).toBe("there is no sh in container dev (od runs its commands there with sh; use an image that has /bin/sh)");
    for (const words of Object.values(said)) expect([words, missingShell(box, 127, words)]).toEqual([words, "there is no sh on box's PATH (od runs its commands there with sh)"]);
    expect(missingShell(box, 1, said.bash)).toBeUndefined();
    expect(missingShell(box, 127, "bash: claude: command not found")).toBeUndefined();
    expect(missingShell(box, 127, "zsh:1: command not found: shellcheck")).toBeUndefined();
  });
});
