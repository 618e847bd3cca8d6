/**
 * The folder of a remote project, checked where it lives: one ssh (or docker exec) command that resolves it
 * (`~` as the remote home, symlinks included, `pwd -P`) and says whether it is a folder. An unreachable host is a fast, typed failure.
 */
import { OdError } from "../errors.ts";
import { describeLocation, type RemoteLocation } from "./machine-url.ts";
import { runRemoteScript, type RemoteContext } from "./remote-exec.ts";

/**
 * `/~` and `/~/…` (as in `ssh://host/~/dir`, the way scp and git URLs say it) are the remote user's home and what is
 * under it; everything else is the absolute path it says.
 */
const RESOLVE_FOLDER_SCRIPT = [
  'p=$1',
  'case $p in "/~") p=$HOME ;; "/~/"*) p=$HOME/${p#"/~/"} ;; esac',
  'cd -- "$p" 2>/dev/null || exit 3; pwd -P',
].join("\n");
const CHECK_TIMEOUT_MS = 20_000;

/** The folder's resolved absolute path on the remote side, or an OdError (invalid when missing, machine_failed/machine_timeout when unreachable). */
export async function resolveRemoteFolder(location: RemoteLocation, context: RemoteContext): Promise<string> {
  const result = await runRemoteScript(location, RESOLVE_FOLDER_SCRIPT, [location.path], context, { timeoutMs: CHECK_TIMEOUT_MS, maxBytes: 64 * 1024 });
  const where = describeLocation(location);
  if (result.kind === "unreachable") throw new OdError("machine_failed", "REMOTE_UNREACHABLE", `cannot reach ${where}: ${result.stderr || "no reason given"}`);
  if (result.kind === "timeout") throw new OdError("machine_timeout", "REMOTE_UNREACHABLE", `${where} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`);
  if (result.code === 3) throw new OdError("invalid", "INVALID_PROJECT_PATH", `no such folder on ${where}: ${location.path}`);
  const resolved = new TextDecoder().decode(result.stdout).replace(/\n$/, "");
  if (result.code !== 0 || !resolved.startsWith("/")) {
    throw new OdError("machine_failed", "REMOTE_UNREACHABLE", `could not check ${location.path} on ${where}: ${result.stderr.trim() || `exit ${result.code}`}`);
  }
  return resolved;
}
