/**
 * A machine reached through a local client (ssh, docker exec): every operation is one short `sh` script there,
 * framed on the client's stdin (remote-exec.ts), paths always arguments of fixed scripts, never script text.
 * ssh-machine.ts and docker-machine.ts differ only in how the client is started and what its failures mean.
 */
import { staysInside } from "./folder-paths.ts";
import { describeLocation, formatLocation, locationKey, type RemoteLocation } from "./machine-url.ts";
import type { FileStamp } from "./folder-snapshot.ts";
import type { AgentProcessSpec, AgentStart, CommandLine, ExecOptions, ExecResult, Machine, MachineReach, RunSweeper, TreeFile } from "./machine.ts";
import { remoteFailure, remoteLaunch, sweepRemoteRun } from "./remote-launch.ts";
import { LAUNCH_SCRIPT } from "./remote-scripts.ts";
import { scriptFraming } from "./script-framing.ts";
import { inSessionTurn } from "./session-slots.ts";
import { remoteShellArgv } from "./transport-argv.ts";
import { RUN_COOKIE_VAR } from "./run-cookie.ts";
import { clientEnv, remoteArgvOptions, REACH_TIMEOUT_MS, runRemoteScript, type RemoteContext } from "./remote-exec.ts";
import { LOGIN_PATH_SCRIPT, parseLoginPath, rememberLoginPath, withLoginPath } from "./login-path.ts";
import { listRemoteFiles, readRemoteFile, writeRemoteFile } from "./remote-files.ts";
import { resolveRemoteFolder } from "./remote-folder.ts";

/**
 * `$1` folder, `$2` depth, `$3` suffix: `size mtime path` NUL-terminated records of the files below it. POSIX `find`
 * only (busybox has no `-printf`), the size from `wc -c` (no awk: a container sharing the host's /usr may have it only
 * as a dangling /etc/alternatives link), the time from `date -r` or `stat`. A missing folder: none.
 */
const TREE_SCRIPT = [
  'cd -- "$1" 2>/dev/null || exit 0',
  "set -f",
  'find . -mindepth 1 -maxdepth "$(($2 + 1))" -type f -name "*$3" 2>/dev/null | while IFS= read -r f; do',
  "  set -- $(wc -c < \"$f\" 2>/dev/null); size=${1:-0}",
  '  when=$(date -r "$f" +%s 2>/dev/null || stat -c %Y "$f" 2>/dev/null || echo 0)',
  "  printf '%s %s %s\\0' \"$size\" \"$when\" \"${f#./}\"",
  "done",
  "exit 0",
].join("\n");
const TREE_TIMEOUT_MS = 15_000;

export abstract class RemoteMachine<L extends RemoteLocation = RemoteLocation> implements Machine {
  abstract readonly kind: L["kind"];
  readonly key: string;
  readonly label: string;

  constructor(
    /** The machine's address; its `path` is the root (`/`). */
    readonly location: L,
    readonly context: RemoteContext,
  ) {
    this.key = locationKey(location);
    this.label = describeLocation(location);
  }

  /** The location of `folder` on this machine. */
  at(folder: string): L {
    return { ...this.location, path: folder };
  }

  exec(script: string, args: readonly string[], options: ExecOptions): Promise<ExecResult> {
    return runRemoteScript(this.location, script, args, this.context, options);
  }

  /** Whether it answers, asking its login shell for its PATH on the way (login-path.ts). */
  async reach(): Promise<MachineReach> {
    const result = await this.exec(LOGIN_PATH_SCRIPT, [], { timeoutMs: REACH_TIMEOUT_MS, maxBytes: 64 * 1024 });
    if (result.kind === "exited") {
      rememberLoginPath(this.key, parseLoginPath(new TextDecoder().decode(result.stdout)));
      return { reached: true };
    }
    const timedOut = result.kind === "timeout";
    return { reached: false, timedOut, why: timedOut ? `no answer within ${REACH_TIMEOUT_MS / 1000} s` : result.stderr };
  }

  resolveFolder(path: string): Promise<string> {
    return resolveRemoteFolder(this.at(path), this.context);
  }

  projectPath(folder: string): string {
    return formatLocation(this.at(folder));
  }

  fileInside(_folder: string, relPath: string): string | undefined {
    return staysInside(relPath) ? relPath : undefined;
  }

  listFiles(folder: string, maxFiles: number): Promise<Map<string, FileStamp>> {
    return listRemoteFiles(this.at(folder), this.context, maxFiles);
  }

  readFile(folder: string, relPath: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
    return readRemoteFile(this.at(folder), this.context, relPath, maxBytes);
  }

  commandLine(argv: readonly string[], env: Record<string, string>, cookie: string): CommandLine {
    return {
      argv: remoteShellArgv(this.location, remoteArgvOptions(this.context)),
      env: clientEnv(this.context.env),
      stdinText: scriptFraming(LAUNCH_SCRIPT, [".", ...argv], { env: { ...withLoginPath(this.key, env), [RUN_COOKIE_VAR]: cookie } }),
    };
  }

  async sweepCookie(cookie: string): Promise<void> {
    await sweepRemoteRun(this.location, cookie, 0, this.context);
  }

  inTurn<T>(command: () => Promise<T>): Promise<T> {
    return inSessionTurn(this.location, command);
  }

  startAgent(spec: AgentProcessSpec, sweeper: RunSweeper): AgentStart {
    const location = this.at(spec.folder);
    const launch = remoteLaunch(location, spec.argv, { ...withLoginPath(this.key, spec.env), [RUN_COOKIE_VAR]: spec.runId }, this.context, sweeper);
    const bin = spec.argv[0] ?? "the agent";
    return {
      // Always a pipe: the launch script and the agent's environment go over it, whatever the agent reads.
      spawn: { argv: launch.argv, env: launch.env, stdin: "pipe" },
      preamble: launch.preamble,
      sweep: launch.sweep,
      // ssh's own ServerAlive notices a host that hangs (transport-argv.ts); a container says so when asked (docker-machine.ts).
      watch: () => () => undefined,
      failure: async (exit, stderr, weStopped) => remoteFailure(location, bin, exit, stderr, weStopped) ?? (await launch.lostSince(exit, weStopped)),
    };
  }

  writeFile(folder: string, relPath: string, bytes: Uint8Array): Promise<void> {
    return writeRemoteFile(this.at(folder), this.context, relPath, bytes);
  }

  async listTree(dir: string, options: { depth: number; suffix: string }): Promise<TreeFile[]> {
    const result = await this.exec(TREE_SCRIPT, [dir, String(options.depth), options.suffix], { timeoutMs: TREE_TIMEOUT_MS, maxBytes: 4 * 1024 * 1024 });
    if (result.kind !== "exited" || result.code !== 0) return [];
    return parseTree(new TextDecoder().decode(result.stdout));
  }
}

/** TREE_SCRIPT's records; a malformed one is skipped. */
export function parseTree(output: string): TreeFile[] {
  const files: TreeFile[] = [];
  for (const record of output.split("\0")) {
    const match = /^(\d+) (\d+) (.+)$/s.exec(record);
    if (match) files.push({ path: match[3]!, size: Number(match[1]), mtimeMs: Number(match[2]) * 1000 });
  }
  return files;
}
