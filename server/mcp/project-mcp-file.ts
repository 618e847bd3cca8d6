/**
 * A project's own MCP list, `.od/mcp-config.json` in its folder, read and written on the project's machine: reads
 * are tolerant (missing is an empty list, anything else a diagnostic naming the file), writes atomic and 0600.
 */
import { OdError } from "../errors.ts";
import type { MachinePlace } from "../machines/machine.ts";
import type { McpConfigFile, McpServer } from "../contracts/mcp.ts";
import { parseMcpEntries, readMcpFile, type McpList } from "./config-files.ts";
import type { ProjectMcpConsent } from "./project-consent.ts";
import { runMcpServers } from "./run-servers.ts";

/** The file, relative to the project folder. */
export const PROJECT_MCP_FILE = ".od/mcp-config.json";
const MAX_BYTES = 1024 * 1024;

/** Where the file is, for answers and diagnostics: its path here, or its URL on another machine. */
export function projectMcpWhere(place: MachinePlace): string {
  return `${place.machine.projectPath(place.folder)}/${PROJECT_MCP_FILE}`;
}

export async function readProjectMcpList(place: MachinePlace): Promise<McpList> {
  const where = projectMcpWhere(place);
  let text: string;
  try {
    text = new TextDecoder().decode(await place.machine.readFile(place.folder, PROJECT_MCP_FILE, MAX_BYTES));
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

export function writeProjectMcpList(place: MachinePlace, file: McpConfigFile): Promise<void> {
  return place.machine.writeFile(place.folder, PROJECT_MCP_FILE, new TextEncoder().encode(`${JSON.stringify({ servers: file.servers }, null, 2)}\n`));
}

/**
 * The servers a run in `place` gets: the user's list (`userMcpPath`, in the data dir), then the project's own on its
 * machine, which start only with the person's consent (mcp/project-consent.ts); problems are notes.
 */
export async function mcpServersForRun(
  userMcpPath: string | undefined,
  place: MachinePlace,
  note: Parameters<typeof runMcpServers>[2],
  consent: ProjectMcpConsent | undefined,
): Promise<McpServer[]> {
  const user = userMcpPath ? readMcpFile(userMcpPath, { trustChecked: true }) : { servers: [], diagnostics: [] };
  return runMcpServers(user, await readProjectMcpList(place), note, consent);
}
