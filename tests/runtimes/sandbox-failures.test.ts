// Issue #34: the failure text of an agent's sandbox that cannot start is recognised, wherever it shows: a failed
// command's output (bubblewrap's own errors), a CLI's warning about it, or a failed run's error text.
import { describe, expect, test } from "bun:test";
import { classifyAgentFailure } from "../../server/runtimes/failures.ts";
import { recognizeSandboxFailure } from "../../server/runtimes/sandbox-failures.ts";

describe("bubblewrap that cannot create namespaces", () => {
  // bubblewrap's lines as codex relays them (codex's own list of user-namespace failures, and what users report).
  const lines = [
    "bwrap: No permissions to create a new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.",
    "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.",
    "bwrap: Creating new namespace failed: Operation not permitted",
    "bwrap: setting up uid map: Permission denied",
    "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted",
    "bwrap: loopback: Failed RTM_NEWLINK: Operation not permitted",
    "\x1b[33mwarning:\x1b[0m Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces.",
    "bubblewrap is unavailable: no system bwrap was found on PATH and no bundled codex-resources/bwrap binary",
  ];
  for (const line of lines) {
    test(JSON.stringify(line.slice(0, 60)), () => {
      const found = recognizeSandboxFailure(`$ ls\n${line}\n[exit code: 1]`);
      expect(found?.cause).toContain("bubblewrap");
      expect(found?.evidence).toBe(line.replace(/\x1b\[[0-9;]*m/g, ""));
    });
  }
});

test("macOS sandbox-exec and Landlock refusing to apply are recognised too", () => {
  expect(recognizeSandboxFailure("sandbox-exec: sandbox_apply: Operation not permitted")?.cause).toContain("sandbox-exec");
  expect(recognizeSandboxFailure("error: landlock ruleset not supported by this kernel")?.cause).toContain("Landlock");
});

test("ordinary failures are not taken for a sandbox", () => {
  for (const text of ["cat: missing.txt: No such file or directory", "Permission denied (publickey).", "make: *** No targets specified", "the bwrap package is installed"]) {
    expect(recognizeSandboxFailure(text)).toBeUndefined();
  }
});

test("a failed run whose error text is the sandbox's is classified as such, with what to do", () => {
  const failure = classifyAgentFailure({ agentId: "codex", text: "bwrap: Creating new namespace failed: Operation not permitted", exitCode: 1, signal: null, sawOutput: true });
  expect(failure).toMatchObject({ category: "config", detail: "sandbox_unavailable", evidence: "bwrap: Creating new namespace failed: Operation not permitted" });
  expect(failure.message).toContain("could not start");
  expect(failure.guidance).toContain("user namespaces");
});
