/**
 * This machine: files read in-process (a regular file opened non-blocking and checked on its descriptor, so a FIFO
 * or device swapped in cannot hang od), scripts run by the local `sh`.
 */
// node:fs only: `od run` loads this module before its agent starts, and loads no other built-in then. Its promises are
// fetched where a file is read, written or listed: importing `promises` from node:fs loads node:fs/promises at once
// (~0.3 ms of every `od run`, which resolves its folder with realpathSync and reads no file through this machine).
import { constants, realpathSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { OdError } from "../errors.ts";
import { fileNotFound, fileTooLarge } from "./file-errors.ts";
import { spawnChild } from "../platform/process.ts";
import { isDirectory, resolveInsideProject, staysInside } from "./folder-paths.ts";
import { snapshotFiles, type FileStamp } from "./folder-snapshot.ts";
import type { AgentProcessSpec, AgentStart, CommandLine, ExecOptions, ExecResult, Machine, MachineReach, TreeFile } from "./machine.ts";
import { RUN_COOKIE_VAR } from "./run-cookie.ts";
import { collectScriptChild } from "./script-child.ts";
import { REMOTE_SHELL_ARGV, scriptFraming } from "./script-framing.ts";

/** This machine's key (where od's data dir always is). */
export const LOCAL_MACHINE_KEY = "local";

export class LocalMachine implements Machine {
  readonly kind = "local" as const;
  readonly key = LOCAL_MACHINE_KEY;
  readonly label = "this machine";

  constructor(private readonly env: Record<string, string | undefined> = process.env) {}

  async exec(script: string, args: readonly string[], options: ExecOptions): Promise<ExecResult> {
    const child = await spawnChild({ argv: [...REMOTE_SHELL_ARGV], env: this.env, stdin: "pipe", ownProcessGroup: true }).catch((error: unknown) => error as Error);
    if (child instanceof Error) return { kind: "unreachable", stderr: `could not start sh: ${child.message}` };
    const end = await collectScriptChild(child, scriptFraming(script, args, { payloadFollows: options.stdin !== undefined }), options);
    return end.kind === "timeout" ? end : { kind: "exited", code: end.code, stdout: end.stdout, stderr: end.stderr };
  }

  async reach(): Promise<MachineReach> {
    return { reached: true };
  }

  async resolveFolder(path: string): Promise<string> {
    const expanded = path === "~" || path.startsWith("~/") ? join(homeFolder(), path.slice(1)) : path;
    if (!isAbsolute(expanded)) throw new OdError("invalid", "INVALID_PROJECT_PATH", `project path must be absolute: ${path}`);
    if (!isDirectory(expanded)) throw new OdError("invalid", "INVALID_PROJECT_PATH", `no such folder: ${path}`);
    return realpathSync(expanded);
  }

  projectPath(folder: string): string {
    return folder;
  }

  fileInside(folder: string, relPath: string): string | undefined {
    return relPath ? resolveInsideProject(folder, relPath) : undefined;
  }

  async listFiles(folder: string, maxFiles: number): Promise<Map<string, FileStamp>> {
    return snapshotFiles(folder, { maxFiles });
  }

  async readFile(folder: string, relPath: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
    const file = this.fileInside(folder, relPath);
    if (!file) throw fileNotFound(relPath);
    let handle: FileHandle;
    try {
      handle = await fsPromises().open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      throw fileNotFound(relPath);
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new OdError("not_found", "FILE_NOT_FOUND", `${relPath} is not a regular file`);
      if (info.size > maxBytes) throw fileTooLarge(relPath, maxBytes);
      const bytes = new Uint8Array(info.size);
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === bytes.length ? bytes : bytes.subarray(0, filled);
    } finally {
      await handle.close();
    }
  }

  commandLine(argv: readonly string[], env: Record<string, string>, cookie: string): CommandLine {
    return { argv: [...argv], env: { ...env, [RUN_COOKIE_VAR]: cookie } };
  }

  /** A command here runs in its own process group, which its runner ends: nothing is left to sweep. */
  async sweepCookie(): Promise<void> {}

  inTurn<T>(command: () => Promise<T>): Promise<T> {
    return command();
  }

  startAgent(spec: AgentProcessSpec): AgentStart {
    return {
      spawn: { argv: [...spec.argv], cwd: spec.folder, env: spec.env, stdin: spec.stdin ? "pipe" : "ignore" },
      // Here, the run's stop sweeps every process carrying the cookie: nothing is left for a sweep after it.
      cookieHere: { name: RUN_COOKIE_VAR, value: spec.runId },
      sweep: async () => ({ kind: "swept", pids: [] }),
      watch: () => () => undefined,
      failure: async () => undefined,
    };
  }

  async writeFile(folder: string, relPath: string, bytes: Uint8Array): Promise<void> {
    if (!staysInside(relPath)) throw fileNotFound(relPath);
    const path = join(folder, relPath);
    const fs = fsPromises();
    await fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(temp, bytes, { mode: 0o600 });
    await fs.rename(temp, path);
  }

  async listTree(dir: string, options: { depth: number; suffix: string }): Promise<TreeFile[]> {
    const found: TreeFile[] = [];
    const fs = fsPromises();
    const visit = async (folder: string, prefix: string, depth: number) => {
      let entries;
      try {
        entries = await fs.readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
        if (entry.isDirectory() && depth < options.depth) await visit(join(folder, entry.name), path, depth + 1);
        else if (entry.isFile() && entry.name.endsWith(options.suffix)) {
          const info = await fs.stat(join(folder, entry.name)).catch(() => undefined);
          if (info) found.push({ path, size: info.size, mtimeMs: info.mtimeMs });
        }
      }
    };
    await visit(dir, "", 0);
    return found;
  }
}

/** node:fs/promises, fetched at its first use (see the top of this file). */
function fsPromises(): typeof import("node:fs/promises") {
  return process.getBuiltinModule("node:fs/promises");
}

/** The user's home folder (node:os only when HOME does not say). */
function homeFolder(): string {
  return process.env.HOME || process.getBuiltinModule("node:os").homedir();
}
