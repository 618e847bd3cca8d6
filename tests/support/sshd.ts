/**
 * A real OpenSSH server on 127.0.0.1 for the remote-project tests: a free port, a generated host key and a
 * generated user key (no password) in a temp folder, and an ssh_config (`OD_SSH_CONFIG`) that names the host
 * `od-test-host`, pins its key in a private known_hosts and logs in with the generated key. The "remote" side is
 * this same machine, so the fake CLIs' files work there too. Needs Debian's `openssh-server` (`.ci/run` installs
 * it); without it the helper throws, so the tests fail with that message instead of skipping.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { join } from "node:path";
import { tempDir } from "./temp.ts";

const SSHD = ["/usr/sbin/sshd", "/usr/bin/sshd"].find((path) => existsSync(path));
export const SSH_TEST_HOST = "od-test-host";

export type TestSshd = {
  port: number;
  /** The ssh_config file to pass as OD_SSH_CONFIG. */
  config: string;
  /** Private folder for ssh's control sockets. */
  controlDir: string;
  /** The sshd process (kill it to drop every connection). */
  pid: number;
  /**
   * The HOME of this account's sessions there: an empty folder of the server's, so what runs there does not depend on
   * this machine's dotfiles (bash reads ~/.bashrc for every command sshd runs; one that starts a version manager
   * there costs dozens of processes a session, which made a loaded CI machine miss the tests' limits).
   */
  home: string;
  /** Env for the local side: OD_SSH_CONFIG set. */
  env: Record<string, string>;
  /**
   * The host stops answering, as a suspended or cut-off machine does: the listener and every sshd process serving a
   * connection are stopped (SIGSTOP), so connections hang instead of failing, while the processes those sessions
   * started keep running. Returns `thaw`, which lets them all go on (idempotent).
   */
  freeze(): () => void;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the server sends its SSH banner. */
async function banner(port: number, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("data", (data) => {
        socket.destroy();
        resolve(data.toString().startsWith("SSH-"));
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * `stockLimits`: sshd's own session and login limits (MaxSessions 10, MaxStartups 10:30:100), as on a host nobody
 * tuned. Otherwise both are raised, so tests that open many connections at once (each with its own control folder)
 * never meet them by chance. `sessionPath`: the PATH of every session there (a host with other tools first).
 * `otherAccounts`: the generated key also logs in to this machine's other accounts (`ssh -l NAME`): sshd reads the
 * authorized keys as the account logging in, so its folder is made passable and that one file readable to them
 * (the private keys stay 0600).
 */
export async function startTestSshd(options: { stockLimits?: boolean; sessionPath?: string; otherAccounts?: boolean } = {}): Promise<TestSshd> {
  if (!SSHD) throw new Error("openssh-server is not installed (apt-get install openssh-server): the remote-project tests need a real sshd");
  const temp = tempDir("od-sshd-");
  const dir = temp.path;
  const key = (name: string) => execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", join(dir, name)]);
  key("host_key");
  key("user_key");
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "user_key.pub")), { mode: 0o600 });
  if (options.otherAccounts) {
    chmodSync(dir, 0o711);
    chmodSync(join(dir, "authorized_keys"), 0o644);
  }
  // sshd running as root insists on its privilege-separation folder (Debian's service unit creates it).
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const controlDir = join(dir, "ctl");
  mkdirSync(controlDir, { mode: 0o700 });
  const home = join(dir, "home");
  mkdirSync(home, { mode: 0o700 });
  const me = execFileSync("id", ["-un"], { encoding: "utf8" }).trim();

  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const sshdConfig = join(dir, "sshd_config");
    writeFileSync(
      sshdConfig,
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${join(dir, "host_key")}`,
        `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
        `PidFile ${join(dir, "sshd.pid")}`,
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        "PermitRootLogin prohibit-password",
        "UsePAM no",
        "StrictModes no",
        ...(options.stockLimits ? [] : ["MaxSessions 50", "MaxStartups 50"]),
        "LogLevel ERROR",
        // sshd keeps the first SetEnv it reads: this account's home and PATH in one line; other accounts keep theirs.
        `Match User ${me}`,
        `  SetEnv HOME=${home}${options.sessionPath ? ` PATH=${options.sessionPath}` : ""}`,
        ...(options.sessionPath ? ["Match all", `  SetEnv PATH=${options.sessionPath}`] : []),
        "",
      ].join("\n"),
    );
    const hostKey = readFileSync(join(dir, "host_key.pub"), "utf8").trim().split(" ").slice(0, 2).join(" ");
    writeFileSync(join(dir, "known_hosts"), `${SSH_TEST_HOST} ${hostKey}\n`);
    const config = join(dir, "ssh_config");
    writeFileSync(
      config,
      [
        `Host ${SSH_TEST_HOST}`,
        "  HostName 127.0.0.1",
        `  Port ${port}`,
        `  User ${me}`,
        `  IdentityFile ${join(dir, "user_key")}`,
        "  IdentitiesOnly yes",
        `  HostKeyAlias ${SSH_TEST_HOST}`,
        `  UserKnownHostsFile ${join(dir, "known_hosts")}`,
        "  GlobalKnownHostsFile /dev/null",
        "  StrictHostKeyChecking yes",
        "  LogLevel ERROR",
        "",
      ].join("\n"),
    );
    const child: ChildProcess = spawn(SSHD, ["-D", "-e", "-f", sshdConfig], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    if (await banner(port, Date.now() + 15_000)) {
      let closing: Promise<void> | undefined;
      // Idempotent: a test may stop its server mid-way and still hold it with `await using`.
      const close = () =>
        (closing ??= (async () => {
          stopMasters(controlDir);
          child.kill("SIGTERM");
          await exited;
          temp[Symbol.dispose]();
        })());
      const freeze = () => {
        const frozen = sshdTree(child.pid!);
        for (const pid of frozen) process.kill(pid, "SIGSTOP");
        let thawed = false;
        return () => {
          if (thawed) return;
          thawed = true;
          for (const pid of frozen) process.kill(pid, "SIGCONT");
        };
      };
      return { port, config, controlDir, home, pid: child.pid!, env: { OD_SSH_CONFIG: config }, freeze, close, [Symbol.asyncDispose]: close };
    }
    child.kill("SIGKILL");
    await exited;
    if (attempt >= 2) {
      temp[Symbol.dispose]();
      throw new Error(`sshd did not start: ${stderr.trim()}`);
    }
  }
}

/** The listener `root` and every sshd process below it (the sessions' monitors and workers), not what they started. */
function sshdTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (readFileSync(`/proc/${entry}/comm`, "latin1").trim() !== "sshd") continue;
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree: number[] = [];
  for (const queue = [root]; queue.length; ) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * End the multiplexing masters od's ssh clients left in `controlDir` (ControlPersist would keep each for a minute),
 * and with them their sshd sessions: the listener's SIGTERM does not end sessions already open.
 */
export function stopMasters(controlDir: string): void {
  for (const name of readdirSync(controlDir)) {
    spawnSync("ssh", ["-o", `ControlPath=${join(controlDir, name)}`, "-O", "exit", SSH_TEST_HOST], { stdio: "ignore", timeout: 10_000 });
  }
}

/**
 * End the masters an od process with its default control folder left: `<data dir>/ssh`, or (a data dir too long
 * for a socket path) an `od-ssh-*` folder it made in its temp dir `tmp`.
 */
export function stopOdMasters(dataDir: string, tmp: string): void {
  const folders = [join(dataDir, "ssh"), ...(existsSync(tmp) ? readdirSync(tmp).filter((name) => name.startsWith("od-ssh-")).map((name) => join(tmp, name)) : [])];
  for (const folder of folders) if (existsSync(folder)) stopMasters(folder);
}
