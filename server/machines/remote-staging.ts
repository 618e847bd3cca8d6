/**
 * A run's staging folder on a remote location: where the skills, MCP config, images and prompt file a local run
 * reads from this machine are put for an agent running there. One private folder per run (`mktemp -d`, mode 0700,
 * in the remote user's temp dir, its name carrying the run id), filled with a tar stream over the same ssh/docker
 * client's stdin and unpacked by the remote side's `tar`, and removed when the run ends. A folder left behind by
 * a dropped connection or a stopped od is removed by the run id when od recovers that run.
 */
import type { ExecResult, Machine } from "./machine.ts";
import { tarChunks, type TarEntry } from "./tar-writer.ts";

const TIMEOUT_MS = 60_000;

/** `$1` run id: makes the folder, prints its path. Exit 3: it could not be made. */
const CREATE_SCRIPT = 'umask 077; d=$(mktemp -d "${TMPDIR:-/tmp}/od-stage-$1.XXXXXXXX") || exit 3; printf "%s" "$d"';
/** `$1` folder: unpacks the tar stream on stdin into it. Exit 3: no such folder. */
const FILL_SCRIPT = 'cd -- "$1" 2>/dev/null || exit 3; umask 077; exec tar -xf -';
/**
 * `$1` folder, then pairs of a source folder there and a member: copies each source's regular files (at most `$2`
 * of them, nothing through a symlink) into that member. Exit 3: no such folder; 5: a copy failed.
 */
const COPY_IN_SCRIPT = String.raw`cd -- "$1" 2>/dev/null || exit 3
most=$2; shift 2
umask 077
while [ "$#" -ge 2 ]; do
  mkdir -p -- "$2" || exit 5
  (cd -- "$1" && find -P . -maxdepth 7 -type f -print0 | head -z -n "$most" | tar --null --no-recursion -T - -cf -) | (cd -- "$2" && tar --no-same-owner --no-same-permissions -xf -) || exit 5
  shift 2
done`;
/** `$1` folder: removes it, and only a folder this module made. */
const REMOVE_SCRIPT = 'case "$1" in */od-stage-*) rm -rf -- "$1" ;; *) exit 3 ;; esac';
/** `$1` run id: removes every staging folder of that run (recovery after a crash or a dropped connection). */
const REMOVE_BY_RUN_SCRIPT = 'for d in "${TMPDIR:-/tmp}"/od-stage-"$1".*; do [ -d "$d" ] && rm -rf -- "$d"; done; exit 0';

/** Why staging failed, for the run's diagnostic. */
export class RemoteStagingError extends Error {
  override name = "RemoteStagingError";
}

export class RemoteStaging {
  private constructor(
    private readonly machine: Machine,
    /** The folder's absolute path on the machine. */
    readonly dir: string,
  ) {}

  /** Makes the run's folder there; throws a RemoteStagingError saying why it could not. */
  static async create(machine: Machine, runId: string): Promise<RemoteStaging> {
    const result = await machine.exec(CREATE_SCRIPT, [runId], { timeoutMs: TIMEOUT_MS, maxBytes: 64 * 1024 });
    const dir = result.kind === "exited" && result.code === 0 ? new TextDecoder().decode(result.stdout) : "";
    if (!dir.startsWith("/") || dir.includes("\n")) throw new RemoteStagingError(`could not make a staging folder on ${machine.label}: ${why(result)}`);
    return new RemoteStaging(machine, dir);
  }

  /** The remote path of a member `path` (relative, `/`-separated). */
  path(path: string): string {
    return `${this.dir}/${path}`;
  }

  /** The member name of a remote `path` inside the folder (the inverse of `path`). */
  member(path: string): string {
    if (!path.startsWith(`${this.dir}/`)) throw new RemoteStagingError(`${path} is not in the staging folder ${this.dir}`);
    return path.slice(this.dir.length + 1);
  }

  /** Writes `entries` into the folder (replacing files of the same name); throws a RemoteStagingError. */
  async put(entries: TarEntry[]): Promise<void> {
    if (!entries.length) return;
    const result = await this.machine.exec(FILL_SCRIPT, [this.dir], { timeoutMs: TIMEOUT_MS, maxBytes: 64 * 1024, stdin: tarChunks(entries) });
    if (result.kind !== "exited" || result.code !== 0) throw new RemoteStagingError(`could not copy the run's inputs to ${this.machine.label}: ${why(result)}`);
  }

  /**
   * Copies folders that are already there (a remote project's own skills) into members of the folder, at most
   * `maxFiles` files each; throws a RemoteStagingError.
   */
  async copyIn(copies: { source: string; member: string }[], maxFiles: number): Promise<void> {
    if (!copies.length) return;
    const args = [this.dir, String(maxFiles), ...copies.flatMap(({ source, member }) => [source, member])];
    const result = await this.machine.exec(COPY_IN_SCRIPT, args, { timeoutMs: TIMEOUT_MS, maxBytes: 64 * 1024 });
    if (result.kind !== "exited" || result.code !== 0) throw new RemoteStagingError(`could not copy the project's skills into the staging folder on ${this.machine.label}: ${why(result)}`);
  }

  /** Removes the folder; true when it is gone. Never throws. */
  async remove(): Promise<boolean> {
    const result = await this.machine.exec(REMOVE_SCRIPT, [this.dir], { timeoutMs: TIMEOUT_MS });
    return result.kind === "exited" && result.code === 0;
  }
}

/** Removes whatever staging folders of run `runId` are left on `machine`. Never throws. */
export async function removeRunStaging(machine: Machine, runId: string): Promise<void> {
  await machine.exec(REMOVE_BY_RUN_SCRIPT, [runId], { timeoutMs: TIMEOUT_MS });
}

function why(result: ExecResult): string {
  if (result.kind === "timeout") return `no answer within ${TIMEOUT_MS / 1000} s`;
  const stderr = result.stderr.trim().split("\n").at(-1)?.trim();
  return stderr || (result.kind === "exited" ? `exit ${result.code}` : "unreachable");
}
