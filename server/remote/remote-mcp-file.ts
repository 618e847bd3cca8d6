/**
 * A remote project's own MCP list (`.od/mcp-config.json` in its folder, as projectMcpPath has it locally), read
 * and written where the project lives: reads are tolerant like readMcpFile (missing is an empty list, anything
 * else a diagnostic), writes are atomic (a temp file beside it, then `mv`) and 0600, the bytes on stdin.
 */
import type { McpConfigFile } from "../contracts/mcp.ts";
import { OdError } from "../errors.ts";
import { parseMcpEntries, type McpList } from "../mcp/config-files.ts";
import { describeLocation, formatLocation, type RemoteLocation } from "../machines/machine-url.ts";
import { expectExited, runRemoteScript, type RemoteContext } from "../machines/remote-exec.ts";
import { readRemoteFile } from "../machines/remote-files.ts";

/** The file, relative to the project folder. */
export const REMOTE_PROJECT_MCP_FILE = ".od/mcp-config.json";
const MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 30_000;

/** `$1` folder, `$2` relative file: stdin replaces it, atomically. Exit 3: no such folder; 4: could not write. */
const WRITE_SCRIPT = `cd -- "$1" 2>/dev/null || exit 3
mkdir -p -- "$(dirname -- "$2")" || exit 4
tmp="$2.$$.tmp"
umask 077
cat > "$tmp" && mv -f -- "$tmp" "$2" || { rm -f -- "$tmp"; exit 4; }`;

/** The URL-like name of the file, for answers and diagnostics. */
export function remoteMcpPath(location: RemoteLocation): string {
  return `${formatLocation(location)}/${REMOTE_PROJECT_MCP_FILE}`;
}

export async function readRemoteMcpList(location: RemoteLocation, context: RemoteContext): Promise<McpList> {
  const where = remoteMcpPath(location);
  let text: string;
  try {
    text = new TextDecoder().decode(await readRemoteFile(location, context, REMOTE_PROJECT_MCP_FILE, MAX_BYTES));
  } catch (error) {
    if (error instanceof OdError && error.code === "FILE_NOT_FOUND") return { servers: [], diagnostics: [] };
    return { servers: [], diagnostics: [`${where}: unreadable (${(error as Error).message})`] };
  }
  try {
    return parseMcpEntries(JSON.parse(text), where);
  } catch (error) {
    return { servers: [], diagnostics: [`${where}: not valid JSON (${(error as Error).message})`] };
  }
}

/** Writes the list there; an OdError when the host or the folder cannot be reached. */
export async function writeRemoteMcpList(location: RemoteLocation, context: RemoteContext, file: McpConfigFile): Promise<void> {
  const bytes = new TextEncoder().encode(`${JSON.stringify({ servers: file.servers }, null, 2)}\n`);
  const result = expectExited(location, await runRemoteScript(location, WRITE_SCRIPT, [location.path, REMOTE_PROJECT_MCP_FILE], context, {
    timeoutMs: TIMEOUT_MS,
    stdin: (async function* () {
      yield bytes;
    })(),
  }));
  const where = describeLocation(location);
  if (result.code === 3) throw new OdError("not_found", "INVALID_PROJECT_PATH", `the project folder is missing on ${where}`);
  if (result.code !== 0) throw new OdError("machine_failed", "REMOTE_WRITE_FAILED", `could not write ${REMOTE_PROJECT_MCP_FILE} on ${where}: ${result.stderr.trim() || `exit ${result.code}`}`);
}
