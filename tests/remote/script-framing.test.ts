// The framing that carries a remote script, its arguments and an agent's environment on stdin to `sh -s`: byte-exact
// under every sh a host may have, including the ones that read their input in blocks (dash, busybox sh), with the
// bytes after it left whole for the script.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LAUNCH_SCRIPT } from "../../server/machines/remote-scripts.ts";
import { FRAMING_CUT_EXIT, scriptFraming } from "../../server/machines/script-framing.ts";
import { tempDir } from "../support/temp.ts";

const BUSYBOX = ["/usr/bin/busybox", "/bin/busybox"].find((path) => existsSync(path));
/** Every sh this machine has, as argv prefixes; dash and busybox are the ones that read stdin in blocks. */
const SHELLS: [string, string[]][] = [
  ["dash", ["dash"]],
  ["bash", ["bash"]],
  ["busybox sh", [BUSYBOX ?? "busybox", "sh"]],
];
const HOSTILE = ["", "it's", "$(touch od-pwned)", "`id`", "a\nb\n", "'\\''", "*", "!x", "%s", "{a,b}", "ünï ✓", "-n"];

/**
 * Runs `sh -s` with `input` given as a file, so the whole of it is there at the first read: a shell that reads in
 * blocks takes as much as it can, as it does when the framing and a payload arrive in one ssh packet.
 */
function runFramed(shell: string[], input: string | Uint8Array) {
  using temp = tempDir("od-framing-");
  const file = join(temp.path, "stdin");
  writeFileSync(file, input);
  const stdin = openSync(file, "r");
  try {
    return spawnSync(shell[0]!, [...shell.slice(1), "-s"], { stdio: [stdin, "pipe", "pipe"], cwd: temp.path });
  } finally {
    closeSync(stdin);
  }
}

test("busybox is there to play a host whose sh reads its input in blocks", () => {
  expect(BUSYBOX, "busybox is not installed (apt-get install busybox)").toBeDefined();
});

describe.each(SHELLS)("scriptFraming under %s", (_name, shell) => {
  test("arguments and environment values arrive byte for byte; bad and od_ names are dropped", () => {
    const env = { OD_A: "it's $(id) `id`\nsecond line\n", OD_B: "", "BAD NAME": "x", od_script: "echo PWNED", OD_C: "ünï ✓" };
    const script = `printf '%s\\0' "$@" "$OD_A" "$OD_B" "$OD_C" "\${BAD+set}" "$(printenv od_script || echo unset)"`;
    const result = runFramed(shell, scriptFraming(script, HOSTILE, { env }));
    expect(result.stderr.toString()).toBe("");
    expect(result.stdout.toString().split("\0").slice(0, -1)).toEqual([...HOSTILE, env.OD_A, "", env.OD_C, "", "unset"]);
  });

  test("the payload after the framing reaches the script whole, however much the shell reads ahead", () => {
    const payload = new Uint8Array(200_000).map((_, i) => (i * 7 + 3) % 256);
    const framing = new TextEncoder().encode(scriptFraming("exec cat", ["a"], { payloadFollows: true }));
    const input = new Uint8Array(framing.length + payload.length);
    input.set(framing);
    input.set(payload, framing.length);
    const result = runFramed(shell, input);
    expect(result.status).toBe(0);
    expect(Buffer.compare(result.stdout, Buffer.from(payload))).toBe(0);
  });

  test("LAUNCH_SCRIPT: the agent runs in the folder with its environment and reads the rest of stdin", () => {
    const framing = scriptFraming(LAUNCH_SCRIPT, ["/", "sh", "-c", 'pwd; printf "%s|" "$OD_X"; cat'], { env: { OD_X: "x y" }, payloadFollows: true });
    const result = runFramed(shell, `${framing}prompt on stdin\n`);
    expect(result.stdout.toString()).toBe("/\nx y|prompt on stdin\n");
  });

  test("the script's own exit status comes back, whether it exits or ends", () => {
    expect(runFramed(shell, scriptFraming("exit 7", [])).status).toBe(7);
    expect(runFramed(shell, scriptFraming('[ "$1" = yes ]', ["no"])).status).toBe(1);
    expect(runFramed(shell, scriptFraming('[ "$1" = yes ]', ["yes"])).status).toBe(0);
  });

  test("a missing folder exits 96; stdin cut before the payload's marker exits 97", () => {
    expect(runFramed(shell, scriptFraming(LAUNCH_SCRIPT, ["/no/such/folder", "true"], { payloadFollows: true })).status).toBe(96);
    const framing = scriptFraming(LAUNCH_SCRIPT, ["/", "true"], { payloadFollows: true });
    expect(runFramed(shell, framing.slice(0, framing.indexOf("}\n") + 2)).status).toBe(FRAMING_CUT_EXIT);
  });
});
