// Issue #36: one Machine contract, three implementations. The same suite runs against this machine, the test sshd
// and a container of the test Docker engine: folders resolve (with `~` as the home there), files list and read
// under the same rules, scripts run with their arguments as words, and a tree is listed *there* — a folder that exists
// only in the container is seen through the container's machine and not through this one.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, realpathSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LocalMachine } from "../../server/machines/local-machine.ts";
import type { Machine } from "../../server/machines/machine.ts";
import { machineAt, placeOf } from "../../server/machines/machine-of.ts";
import { SSH_TEST_HOST } from "../support/sshd.ts";
import { useTestMachines } from "../support/test-machines.ts";
import { tempDir } from "../support/temp.ts";

const engines = useTestMachines();

/** Each kind of machine, built from the URL a project of it would have. */
const machines: [string, () => Machine][] = [
  ["local", () => new LocalMachine()],
  ["ssh", () => machineAt(`ssh://${SSH_TEST_HOST}`, { env: { ...process.env, ...engines.sshd.env }, controlDir: engines.sshd.controlDir })],
  ["docker", () => machineAt(`docker://${engines.docker.container}`, { env: { ...process.env, ...engines.docker.env } })],
];

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe.each(machines)("the %s machine", (kind, make) => {
  test("says what it is", () => {
    const machine = make();
    expect(machine.kind).toBe(kind as Machine["kind"]);
    expect(machine.label.length).toBeGreaterThan(0);
    expect(machine.key).toBe(kind === "local" ? "local" : kind === "ssh" ? `ssh://${SSH_TEST_HOST}` : `docker://${engines.docker.container}`);
  });

  test("runs a script with its arguments as exactly those words, and gives its exit code back", async () => {
    const words = ["it's", "$(id)", "a b", "-rf", "ünï"];
    const result = await make().exec(`printf '%s\\0' "$@"; exit 7`, words, { timeoutMs: 30_000 });
    expect(result.kind).toBe("exited");
    if (result.kind !== "exited") return;
    expect(result.code).toBe(7);
    expect(text(result.stdout).split("\0").slice(0, -1)).toEqual(words);
    expect(await make().reach()).toEqual({ reached: true });
  });

  test("resolves a folder through symlinks, refuses a missing one", async () => {
    using temp = tempDir("od-machine-");
    mkdirSync(join(temp.path, "real"));
    symlinkSync(join(temp.path, "real"), join(temp.path, "link"));
    const machine = make();
    expect(await machine.resolveFolder(join(temp.path, "link"))).toBe(join(temp.path, "real"));
    await expect(machine.resolveFolder(join(temp.path, "gone"))).rejects.toMatchObject({ code: "INVALID_PROJECT_PATH" });
  });

  test("lists a project's files (bulky folders skipped) and reads one, never outside the folder", async () => {
    using temp = tempDir("od-machine-");
    mkdirSync(join(temp.path, "src"));
    mkdirSync(join(temp.path, "node_modules"));
    writeFileSync(join(temp.path, "src", "a.ts"), "export {}\n");
    writeFileSync(join(temp.path, "node_modules", "x.js"), "skipped");
    writeFileSync(join(temp.path, "big.txt"), "x".repeat(2048));
    symlinkSync("/etc/hostname", join(temp.path, "escape"));
    const machine = make();
    const files = await machine.listFiles(temp.path, 100);
    expect([...files.keys()].sort()).toEqual(["big.txt", "src/a.ts"]);
    expect(files.get("src/a.ts")?.size).toBe(10);
    expect(text(await machine.readFile(temp.path, "src/a.ts", 1024))).toBe("export {}\n");
    await expect(machine.readFile(temp.path, "big.txt", 1024)).rejects.toMatchObject({ code: "FILE_TOO_LARGE", kind: "too_large" });
    await expect(machine.readFile(temp.path, "../x", 1024)).rejects.toMatchObject({ code: "FILE_NOT_FOUND", kind: "not_found" });
    await expect(machine.readFile(temp.path, "escape", 1024)).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });
  });

  test("writes a file inside the folder atomically, readable by its owner only, its folders made; never outside", async () => {
    using temp = tempDir("od-machine-");
    const machine = make();
    await machine.writeFile(temp.path, ".od/mcp-config.json", new TextEncoder().encode('{"servers":[]}\n'));
    await machine.writeFile(temp.path, ".od/mcp-config.json", new TextEncoder().encode('{"servers":[1]}\n'));
    expect(readFileSync(join(temp.path, ".od", "mcp-config.json"), "utf8")).toBe('{"servers":[1]}\n');
    expect(statSync(join(temp.path, ".od", "mcp-config.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(temp.path, ".od"))).toEqual(["mcp-config.json"]);
    await expect(machine.writeFile(temp.path, "../escaped", new Uint8Array(1))).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });
    expect(existsSync(join(temp.path, "..", "escaped"))).toBe(false);
  });

  test("lists a tree of one kind of file, two folders deep; a missing folder has none", async () => {
    using temp = tempDir("od-machine-");
    mkdirSync(join(temp.path, "a", "b", "c"), { recursive: true });
    writeFileSync(join(temp.path, "top.jsonl"), "1\n");
    writeFileSync(join(temp.path, "a", "one.jsonl"), "12\n");
    writeFileSync(join(temp.path, "a", "b", "two.jsonl"), "123\n");
    writeFileSync(join(temp.path, "a", "b", "c", "too-deep.jsonl"), "x\n");
    writeFileSync(join(temp.path, "a", "other.txt"), "x\n");
    const machine = make();
    const tree = await machine.listTree(temp.path, { depth: 2, suffix: ".jsonl" });
    expect(tree.map((file) => [file.path, file.size]).sort()).toEqual([["a/b/two.jsonl", 4], ["a/one.jsonl", 3], ["top.jsonl", 2]]);
    for (const file of tree) expect(Math.abs(file.mtimeMs - Date.now())).toBeLessThan(120_000);
    expect(await machine.listTree(join(temp.path, "gone"), { depth: 2, suffix: ".jsonl" })).toEqual([]);
  });
});

test("a project URL's place is its machine and the folder there; a local path is this machine's", () => {
  const ssh = placeOf(`ssh://me@${SSH_TEST_HOST}:2222/srv/app`, { env: {} });
  expect(ssh.machine.kind).toBe("ssh");
  expect(ssh.folder).toBe("/srv/app");
  expect(ssh.machine.key).toBe(`ssh://me@${SSH_TEST_HOST}:2222`);
  const local = placeOf("/srv/app", { env: {} });
  expect(local.machine.kind).toBe("local");
  expect(local.folder).toBe("/srv/app");
});

test("the container's machine sees the container's own files, which this machine does not have", async () => {
  const only = "/od-container-only";
  execFileSync("docker", ["exec", engines.docker.container, "sh", "-c", `mkdir -p ${only}/s && echo '{}' > ${only}/s/x.jsonl`], { env: { ...process.env, ...engines.docker.env } });
  const inContainer = machineAt(`docker://${engines.docker.container}`, { env: { ...process.env, ...engines.docker.env } });
  expect((await inContainer.listTree(only, { depth: 2, suffix: ".jsonl" })).map((file) => file.path)).toEqual(["s/x.jsonl"]);
  expect(await new LocalMachine().listTree(only, { depth: 2, suffix: ".jsonl" })).toEqual([]);
});

test("~ is the home folder there ($HOME, as a shell has it)", async () => {
  expect(await new LocalMachine().resolveFolder("~")).toBe(realpathSync(process.env.HOME!));
});
