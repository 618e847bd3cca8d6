/** Creating and listing projects, and reading the files in them — with every path validated. */
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { Project, ProjectFile } from "../contracts/projects.ts";
import { OdError } from "../errors.ts";
import { dataPaths } from "../paths.ts";
import { PRIVATE_DIR_MODE } from "../private-data-dir.ts";
import type { Store } from "../store/store.ts";
import { snapshotFiles, type FileStamp } from "./file-snapshot.ts";
import { listRemoteFiles, readRemoteFile } from "../remote/remote-files.ts";
import { isInsideRemoteFolder } from "../remote/remote-run-inputs.ts";
import { folderSlug, isDirectory, resolveInsideProject } from "./paths.ts";
import { isPrivateDataPath, refusedProjectFolder, refusedSystemFolder } from "./system-roots.ts";
import { formatLocation, isRemoteUrl, LocationError, parseLocation, remoteLocationOf, type RemoteLocation } from "../remote/location.ts";
import { resolveRemoteFolder } from "../remote/remote-folder.ts";
import type { RemoteContext } from "../remote/remote-exec.ts";

const MAX_LISTED_FILES = 2000;

export class ProjectService {
  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    /** How remote folders are reached (the daemon's env for ssh, OD_SSH_CONFIG). */
    private readonly remote: RemoteContext = { env: process.env },
  ) {}

  /**
   * `create`, also for a project on another machine or in a container (`ssh://…`, `docker://…`): the folder is
   * checked there, and the canonical URL of its resolved path is what od stores. `reuse`: a folder that already
   * is a project gives that project back instead of a 409 (`od run --project`).
   */
  async add(name: string, path?: string, options: { reuse?: boolean } = {}): Promise<Project> {
    if (path === undefined || !isRemoteUrl(path)) return this.create(name, path);
    let location: RemoteLocation;
    try {
      location = parseLocation(path) as RemoteLocation;
    } catch (error) {
      if (error instanceof LocationError) throw new OdError("invalid", "INVALID_PROJECT_PATH", error.message);
      throw error;
    }
    const refusedAsGiven = refusedSystemFolder(location.path);
    if (refusedAsGiven) throw new OdError("invalid", "INVALID_PROJECT_PATH", `${refusedAsGiven}; choose a folder of your own`);
    const real = { ...location, path: await resolveRemoteFolder(location, this.remote) };
    const refused = refusedSystemFolder(real.path);
    if (refused) throw new OdError("invalid", "INVALID_PROJECT_PATH", `${refused}; choose a folder of your own`);
    const url = formatLocation(real);
    const existing = this.store.projects.byPath(url);
    if (existing && options.reuse) return existing;
    if (existing) throw new OdError("conflict", "PROJECT_EXISTS", `${url} is already the project "${existing.name}" (${existing.id})`);
    return this.store.projects.create(name, url);
  }

  create(name: string, path?: string): Project {
    if (path !== undefined) return this.registerExisting(name, path);
    const root = dataPaths(this.dataDir).projects;
    // Private like the rest of the data dir (the agent's files inside keep their own modes).
    mkdirSync(root, { recursive: true, mode: PRIVATE_DIR_MODE });
    const base = folderSlug(name);
    let folder = join(root, base);
    for (let n = 2; existsSync(folder); n++) folder = join(root, `${base}-${n}`);
    mkdirSync(folder, { mode: PRIVATE_DIR_MODE });
    return this.store.projects.create(name, realpathSync(folder));
  }

  private registerExisting(name: string, path: string): Project {
    if (isRemoteUrl(path)) throw new OdError("invalid", "INVALID_PROJECT_PATH", "a remote project is added with add(), which checks its folder");
    if (!isAbsolute(path)) throw new OdError("invalid", "INVALID_PROJECT_PATH", `project path must be absolute: ${path}`);
    if (!isDirectory(path)) throw new OdError("invalid", "INVALID_PROJECT_PATH", `no such folder: ${path}`);
    const real = realpathSync(path);
    const refused = refusedProjectFolder(real, this.realDataDir());
    if (refused) throw new OdError("invalid", "INVALID_PROJECT_PATH", `${refused}; choose a folder of your own`);
    const existing = this.store.projects.byPath(real);
    if (existing) throw new OdError("conflict", "PROJECT_EXISTS", `${real} is already the project "${existing.name}" (${existing.id})`);
    return this.store.projects.create(name, real);
  }

  /** The project, or a 404. */
  require(id: string): Project {
    const project = this.store.projects.get(id);
    if (!project) throw new OdError("not_found", "PROJECT_NOT_FOUND", `no project ${id}`);
    return project;
  }

  /**
   * The absolute path of a file inside the project that may be served: inside the folder even through symlinks,
   * never od's own data, never in a project registered before system folders were refused. Else a 404/400.
   */
  readableFile(project: Project, relPath: string): string {
    // On another machine: only the path's shape can be checked here; the read there checks the rest.
    if (remoteLocationOf(project.path)) {
      if (!isInsideRemoteFolder(relPath)) throw new OdError("not_found", "FILE_NOT_FOUND", `no file ${JSON.stringify(relPath)} in this project`);
      return relPath;
    }
    const dataDir = this.realDataDir();
    const refused = refusedProjectFolder(project.path, dataDir);
    if (refused) throw new OdError("invalid", "INVALID_PROJECT_PATH", `files of this project are not served: ${refused}`);
    const file = relPath ? resolveInsideProject(project.path, relPath) : undefined;
    if (!file || isPrivateDataPath(file, dataDir)) throw new OdError("not_found", "FILE_NOT_FOUND", `no file ${JSON.stringify(relPath)} in this project`);
    return file;
  }

  private realDataDir(): string {
    try {
      return realpathSync(this.dataDir);
    } catch {
      return resolve(this.dataDir);
    }
  }

  /** `listFiles`, also for a project on another machine or in a container (listed there). */
  async files(project: Project): Promise<ProjectFile[]> {
    const location = remoteLocationOf(project.path);
    if (!location) return this.listFiles(project);
    return this.#withWriters(project, await listRemoteFiles(location, this.remote, MAX_LISTED_FILES));
  }

  /** A remote project's file, read there (a regular file inside the folder, at most `maxBytes`); else 404/413. */
  remoteFile(project: Project, relPath: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> | undefined {
    const location = remoteLocationOf(project.path);
    return location ? readRemoteFile(location, this.remote, relPath, maxBytes) : undefined;
  }

  /** Files in the project folder, newest first, with the run that last wrote each one when od saw it. */
  listFiles(project: Project): ProjectFile[] {
    if (remoteLocationOf(project.path)) throw new OdError("invalid", "INVALID_PROJECT_PATH", "the files of a remote project are listed with files()");
    return this.#withWriters(project, snapshotFiles(project.path, { maxFiles: MAX_LISTED_FILES }));
  }

  #withWriters(project: Project, snapshot: Map<string, FileStamp>): ProjectFile[] {
    const writtenBy = new Map<string, string>();
    for (const run of this.store.runs.list({ projectId: project.id }).reverse()) {
      for (const file of run.files) writtenBy.set(file, run.id);
    }
    return [...snapshot]
      .map(([path, stamp]) => ({ path, size: stamp.size, modifiedAt: stamp.mtimeMs, runId: writtenBy.get(path) ?? null }))
      .sort((a, b) => b.modifiedAt - a.modifiedAt);
  }
}
