/**
 * The folders in one folder of a machine, for the page's folder picker: one script through `Machine.exec`, so this
 * machine, an ssh host and a container answer alike. Names are NUL-separated (a folder name may hold a newline).
 */
import type { FolderListResponse } from "../contracts/folders.ts";
import { OdError } from "../errors.ts";
import type { Machine } from "./machine.ts";

/** The most folders one answer lists (a folder with more says `truncated`). */
export const MAX_FOLDERS = 2000;
const LIST_TIMEOUT_MS = 15_000;

/**
 * $1: the folder ("" or "~" for home, "~/…" below it); $2: "1" to list hidden folders. Prints home, the folder
 * (both `pwd -P`), then each folder's name, all NUL-terminated. Exit 3: no such folder; 4: not readable.
 */
const LIST_SCRIPT = `
home=$(cd && pwd -P) || exit 3
case $1 in
  ""|"~") target=$home ;;
  "~/"*) target=$home/\${1#"~/"} ;;
  *) target=$1 ;;
esac
cd -- "$target" 2>/dev/null || exit 3
[ -r . ] && [ -x . ] || exit 4
printf '%s\\0%s\\0' "$home" "$(pwd -P)"
for entry in * .*; do
  case $entry in .|..) continue ;; .*) [ "$2" = 1 ] || continue ;; esac
  [ -d "$entry" ] && printf '%s\\0' "$entry"
done
exit 0
`;

export async function listFolders(machine: Machine, path: string | undefined, hidden: boolean): Promise<FolderListResponse> {
  if (path !== undefined && path !== "~" && !path.startsWith("~/") && !path.startsWith("/")) {
    throw new OdError("invalid", "INVALID_FOLDER", "give an absolute folder (or ~ for the home folder)");
  }
  const result = await machine.exec(LIST_SCRIPT, [path ?? "", hidden ? "1" : "0"], { timeoutMs: LIST_TIMEOUT_MS, maxBytes: 4 * 1024 * 1024 });
  if (result.kind === "timeout") throw new OdError("machine_timeout", "REMOTE_TIMEOUT", `${machine.label} did not answer in time`);
  if (result.kind === "unreachable") throw new OdError("machine_failed", "REMOTE_UNREACHABLE", `cannot reach ${machine.label}: ${result.stderr}`);
  if (result.code === 3) throw new OdError("not_found", "FOLDER_NOT_FOUND", `no folder ${path ?? "~"} on ${machine.label}`);
  if (result.code === 4) throw new OdError("invalid", "FOLDER_NOT_READABLE", `${path} on ${machine.label} cannot be read`);
  if (result.code !== 0) throw new OdError("machine_failed", "REMOTE_UNREACHABLE", `listing ${path ?? "~"} on ${machine.label} failed: ${result.stderr.trim()}`);
  const [home = "/", here = "/", ...names] = new TextDecoder().decode(result.stdout).split("\0");
  const folders = names.filter((name) => name !== "").sort((a, b) => a.localeCompare(b));
  const parent = here === "/" ? null : here.slice(0, here.lastIndexOf("/")) || "/";
  return { path: here, parent, home, folders: folders.slice(0, MAX_FOLDERS), truncated: folders.length > MAX_FOLDERS };
}
