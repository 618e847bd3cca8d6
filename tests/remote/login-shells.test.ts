// Issue #35: commands sent over ssh are parsed first by the remote account's login shell, whatever it is. Real
// accounts on this machine, one per shell (sh, bash, dash, zsh, fish, tcsh), reached through the test sshd:
// detection, the files panel's list and read (what `files/raw` serves), and an agent's argv, environment and stdin
// work there byte for byte with hostile names and prompts, and nothing in them ever runs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { parseLocation, type RemoteLocation } from "../../server/machines/machine-url.ts";
import { listRemoteFiles, readRemoteFile } from "../../server/machines/remote-files.ts";
import { remoteLaunch } from "../../server/machines/remote-launch.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { writeShim } from "../support/fake-agents.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { remoteMachine } from "../../server/machines/machine-of.ts";

/** Each login shell under test and where Debian installs it (packages dash, bash, zsh, fish, tcsh). */
const SHELLS = [
  ["sh", "/bin/sh"],
  ["bash", "/bin/bash"],
  ["dash", "/bin/dash"],
  ["zsh", "/usr/bin/zsh"],
  ["fish", "/usr/bin/fish"],
  ["tcsh", "/usr/bin/tcsh"],
] as const;

/** Where each shell's login reads its PATH additions, and the line that puts ~/tools first. */
const LOGIN_PROFILES: Record<string, [string, string]> = {
  sh: [".profile", 'PATH="$HOME/tools:$PATH"'],
  bash: [".profile", 'PATH="$HOME/tools:$PATH"'],
  dash: [".profile", 'PATH="$HOME/tools:$PATH"'],
  zsh: [".zprofile", 'path=("$HOME/tools" $path)'],
  fish: [".config/fish/config.fish", "set -gx PATH $HOME/tools $PATH"],
  tcsh: [".tcshrc", "setenv PATH ${HOME}/tools:${PATH}"],
};

/** Every name a marker file below would get if any of these strings ever ran as a command. */
const PWNED = /PWNED/;
const HOSTILE_NAMES = [
  "\\'; touch FISH-PWNED-BY-FILENAME; echo \\'",
  "$(touch SUBST-PWNED)",
  "`touch BACKTICK-PWNED`",
  "\"; touch DQUOTE-PWNED; echo \"",
  "!touch BANG-PWNED",
  "line\nbreak; touch NEWLINE-PWNED",
  "*",
  "%s %n 100%",
  "{a,b} ~root $HOME",
  "-n",
  "ünï ✓ 🚀",
];
const HOSTILE_PROMPT = `${HOSTILE_NAMES.join(" | ")}\n'\\'' ; exit 1 #`;

const defs = ["claude", "codex", "aider"].map((id) => getAgentDef(id) as RuntimeAgentDef);
const VERSIONS: Record<string, string> = { claude: "9.8.7", codex: "1.2.3" };

type Account = { shell: string; name: string; uid: number; home: string; project: string };
let sshd: TestSshd;
const accounts = new Map<string, Account>();

beforeAll(async () => {
  sshd = await startTestSshd({ otherAccounts: true });
  const suffix = crypto.randomUUID().slice(0, 6);
  for (const [shell, path] of SHELLS) {
    if (!existsSync(path)) throw new Error(`${path} is missing (apt-get install ${shell === "sh" ? "dash" : shell}): this test logs in to an account whose login shell it is`);
    const name = `odsh-${shell}-${suffix}`;
    // Password `*`: none works, yet the account is not locked (`!`), which sshd without PAM refuses keys for too.
    const added = spawnSync("useradd", ["-m", "-p", "*", "-s", path, name], { encoding: "utf8" });
    if (added.status !== 0) throw new Error(`could not create the account ${name}: ${added.stderr || added.error}`);
    const [uid, home] = execFileSync("sh", ["-c", 'getent passwd "$1" | cut -d: -f3,6', "sh", name], { encoding: "utf8" }).trim().split(":");
    if (!home) throw new Error(`the account ${name} has no home folder`);
    const project = join(home, "project");
    accounts.set(shell, { shell, name, uid: Number(uid), home, project });
    mkdirSync(join(home, "bin"));
    for (const def of defs.filter((d) => VERSIONS[d.id])) writeShim(join(home, "bin"), def.bin);
    // A CLI only the login shell finds: in ~/tools, which the account's login profile puts on PATH.
    mkdirSync(join(home, "tools"));
    writeShim(join(home, "tools"), (getAgentDef("aider") as RuntimeAgentDef).bin);
    const [profile, line] = LOGIN_PROFILES[shell]!;
    mkdirSync(join(home, profile, ".."), { recursive: true });
    appendFileSync(join(home, profile), `\n${line}\n`);
    mkdirSync(project);
    for (const [i, file] of HOSTILE_NAMES.entries()) writeFileSync(join(project, file), `contents of #${i}: ${file}\n`);
    execFileSync("chown", ["-R", `${name}:`, home]);
    chmodSync(home, 0o755);
  }
}, 120_000);

afterAll(async () => {
  await sshd?.close();
  for (const { name, uid } of accounts.values()) {
    // Whatever of the account still runs (nothing should once sshd is gone) goes with it, by pid.
    for (const pid of processesOf(uid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    }
    spawnSync("userdel", ["-r", name], { stdio: "ignore" });
  }
}, 60_000);

/** pids of the live processes running as `uid`. */
function processesOf(uid: number): number[] {
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry) && statSync(`/proc/${entry}`, { throwIfNoEntry: false })?.uid === uid).map(Number);
}

const remote = () => ({ env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir });
const locationOf = (account: Account, path = account.project) => parseLocation(`ssh://${account.name}@${SSH_TEST_HOST}${path}`) as RemoteLocation;

/** Marker files the hostile strings would have made, in the account's home (ssh's cwd) or project folder. */
function markers(account: Account): string[] {
  return [account.home, account.project].flatMap((dir) => readdirSync(dir).filter((name) => PWNED.test(name) && !HOSTILE_NAMES.includes(name)));
}

async function textOf(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

describe.each(SHELLS.map(([shell]) => shell))("an account whose login shell is %s", (shell) => {
  const account = () => accounts.get(shell)!;

  test("detection finds exactly the CLIs installed there, with their versions", async () => {
    const catalog = new AgentCatalog({
      defs,
      deps: () => ({
        env: { ...process.env, PATH: "/usr/bin:/bin", ...sshd.env },
        configuredEnv: (id) => ({ PATH: `${account().home}/bin:/usr/bin:/bin`, FAKE_CLI_VERSION: VERSIONS[id] ?? "0.0.0" }),
      }),
      remote: remote(),
    });
    const agents = await catalog.detectOn(remoteMachine(locationOf(account(), account().home), remote()));
    const found = agents.map((agent) => [agent.id, agent.state, agent.version ?? null]);
    expect(found).toEqual([
      ["claude", "available", "9.8.7"],
      ["codex", "available", "1.2.3"],
      ["aider", "unavailable", null],
    ]);
    expect(agents.find((a) => a.id === "aider")!.diagnostics[0]).toMatchObject({ reason: "not-installed" });
    expect(markers(account())).toEqual([]);
  }, 120_000);

  test("a CLI on the login shell's PATH is found there, as the person finds it when they log in (issue #36 item 3)", async () => {
    const catalog = new AgentCatalog({
      defs,
      deps: () => ({ env: { ...process.env, PATH: "/usr/bin:/bin", ...sshd.env }, configuredEnv: () => ({ FAKE_CLI_VERSION: "4.5.6" }) }),
      remote: remote(),
    });
    const agents = await catalog.detectOn(remoteMachine(locationOf(account(), account().home), remote()));
    expect(agents.find((agent) => agent.id === "aider")).toMatchObject({ state: "available", version: "4.5.6" });
    // A PATH the person configured for the agent is theirs: it is not replaced.
    const configured = new AgentCatalog({
      defs,
      deps: () => ({ env: { ...process.env, PATH: "/usr/bin:/bin", ...sshd.env }, configuredEnv: () => ({ PATH: "/usr/bin:/bin", FAKE_CLI_VERSION: "4.5.6" }) }),
      remote: remote(),
    });
    const without = await configured.detectOn(remoteMachine(locationOf(account(), account().home), remote()));
    expect(without.find((agent) => agent.id === "aider")).toMatchObject({ state: "unavailable" });
    expect(markers(account())).toEqual([]);
  }, 120_000);

  test("the files panel lists and reads files with hostile names, and none of them runs", async () => {
    const location = locationOf(account());
    const files = await listRemoteFiles(location, remote(), 1000);
    expect([...files.keys()].sort()).toEqual([...HOSTILE_NAMES].sort());
    for (const [i, file] of HOSTILE_NAMES.entries()) {
      const bytes = await readRemoteFile(location, remote(), file, 1024 * 1024);
      expect(new TextDecoder().decode(bytes)).toBe(`contents of #${i}: ${file}\n`);
    }
    expect(markers(account())).toEqual([]);
  }, 120_000);

  test("an agent gets its argv, environment and stdin byte for byte, in the project folder", async () => {
    const agentArgv = ["sh", "-c", 'printf "%s\\0" "$PWD" "$OD_SECRET" "$@"; cat', "agent", HOSTILE_PROMPT, ...HOSTILE_NAMES];
    const secret = `it's $(touch ENV-PWNED) \`x\`\nline`;
    const launch = remoteLaunch(locationOf(account()), agentArgv, { OD_SECRET: secret }, remote(), async () => ({ kind: "swept", pids: [] }));
    const child = await spawnChild({ argv: launch.argv, env: launch.env, stdin: "pipe", ownProcessGroup: true });
    const output = Promise.all([textOf(child.stdout), textOf(child.stderr)]);
    await child.stdin!.write(launch.preamble);
    await child.stdin!.write(HOSTILE_PROMPT);
    child.stdin!.end();
    const exit = await child.exited;
    const [stdout, stderr] = await output;
    expect({ code: exit.code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout.split("\0")).toEqual([account().project, secret, HOSTILE_PROMPT, ...HOSTILE_NAMES, HOSTILE_PROMPT]);
    expect(markers(account())).toEqual([]);
  }, 120_000);
});
