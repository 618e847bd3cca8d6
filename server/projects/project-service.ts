/**
 * Creating and listing projects, and reading the files in them — with every path validated. A project's folder is on
 * its machine (machines/machine-of.ts): this one, an ssh host or a container; each question goes to that machine.
 */
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Project, ProjectFile } from "../contracts/projects.ts";
import { OdError } from "../errors.ts";
import { dataPaths } from "../paths.ts";
import { PRIVATE_DIR_MODE } from "../private-data-dir.ts";
import type { Store } from "../store/store.ts";
import type { FileStamp } from "../machines/folder-snapshot.ts";
import { folderSlug } from "../machines/folder-paths.ts";
import type { MachinePlace } from "../machines/machine.ts";
import { LOCAL_MACHINE_KEY } from "../machines/local-machine.ts";
import { placeOf } from "../machines/machine-of.ts";
import { LocationError } from "../machines/machine-url.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import { isPrivateDataPath, refusedProjectFolder, refusedSystemFolder } from "./system-roots.ts";

const MAX_LISTED_FILES = 2000;

export class ProjectService {
  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    /** How remote folders are reached (the daemon's env for ssh, OD_SSH_CONFIG). */
    private readonly remote: RemoteContext = { env: process.env },
  ) {}

  /**
   * A project in `path` on its machine (`ssh://…` and `docker://…` name another one): the folder is checked there,
   * and its resolved path (a URL for another machine) is what od stores. Without a path: a new folder in the data
   * dir. A folder that already is a project is a 409.
   */
  async add(name: string, path?: string): Promise<Project> {
    if (path === undefined) return this.create(name);
    const { stored, existing } = await this.#checkedFolder(path);
    if (existing) throw new OdError("conflict", "PROJECT_EXISTS", `${stored} is already the project "${existing.name}" (${existing.id})`);
    return this.store.projects.create(name, stored);
  }

  /**
   * The project of the folder at `path`, checked as `add` checks it: the one it already is, or a new one (`created`),
   * which `od run --project` removes again when its run is refused.
   */
  async ensure(name: string, path: string): Promise<{ project: Project; created: boolean }> {
    const { stored, existing } = await this.#checkedFolder(path);
    return existing ? { project: existing, created: false } : { project: this.store.projects.create(name, stored), created: true };
  }

  /** The folder at `path` as od stores it, once it may be a project, and the project it already is. */
  async #checkedFolder(path: string): Promise<{ stored: string; existing: Project | undefined }> {
    const { machine, folder } = this.placeOf(path);
    const refusedAsGiven = refusedSystemFolder(folder);
    if (refusedAsGiven) throw new OdError("invalid", "INVALID_PROJECT_PATH", `${refusedAsGiven}; choose a folder of your own`);
    const real = await machine.resolveFolder(folder);
    const refused = this.#refusedFolder({ machine, folder: real });
    if (refused) throw new OdError("invalid", "INVALID_PROJECT_PATH", `${refused}; choose a folder of your own`);
    const stored = machine.projectPath(real);
    return { stored, existing: this.store.projects.byPath(stored) };
  }

  /** A new project in a new folder of the data dir. */
  create(name: string): Project {
    const root = dataPaths(this.dataDir).projects;
    // Private like the rest of the data dir (the agent's files inside keep their own modes).
    mkdirSync(root, { recursive: true, mode: PRIVATE_DIR_MODE });
    const base = folderSlug(name);
    let folder = join(root, base);
    for (let n = 2; existsSync(folder); n++) folder = join(root, `${base}-${n}`);
    mkdirSync(folder, { mode: PRIVATE_DIR_MODE });
    return this.store.projects.create(name, realpathSync(folder));
  }

  /** The machine and folder of a project path; a malformed machine URL is a 400. */
  placeOf(path: string): MachinePlace {
    try {
      return placeOf(path, this.remote);
    } catch (error) {
      if (error instanceof LocationError) throw new OdError("invalid", "INVALID_PROJECT_PATH", error.message);
      throw error;
    }
  }

  /** Why a folder cannot be a project: a system folder, or od's own data dir (which is on this machine). */
  #refusedFolder(place: MachinePlace): string | undefined {
    if (place.machine.key !== LOCAL_MACHINE_KEY) return refusedSystemFolder(place.folder);
    return refusedProjectFolder(place.folder, this.realDataDir());
  }


  /** The project, or a 404. */
  require(id: string): Project {
    const project = this.store.projects.get(id);
    if (!project) throw new OdError("not_found", "PROJECT_NOT_FOUND", `no project ${id}`);
    return project;
  }

  /**
   * The file inside the project that may be served (on this machine: inside the folder even through symlinks,
   * never od's own data, never in a project registered before system folders were refused). Else a 404/400.
   */
  readableFile(project: Project, relPath: string): string {
    const place = this.placeOf(project.path);
    const refused = this.#refusedFolder(place);
    if (refused) throw new OdError("invalid", "INVALID_PROJECT_PATH", `files of this project are not served: ${refused}`);
    const file = place.machine.fileInside(place.folder, relPath);
    const isOdData = place.machine.key === LOCAL_MACHINE_KEY && file !== undefined && isPrivateDataPath(file, this.realDataDir());
    if (!file || isOdData) throw new OdError("not_found", "FILE_NOT_FOUND", `no file ${JSON.stringify(relPath)} in this project`);
    return file;
  }

  /** A project's file, read on its machine: a regular file inside the folder, at most `maxBytes`; else 404/413. */
  async readFile(project: Project, relPath: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
    this.readableFile(project, relPath);
    const { machine, folder } = this.placeOf(project.path);
    return machine.readFile(folder, relPath, maxBytes);
  }

  private realDataDir(): string {
    try {
      return realpathSync(this.dataDir);
    } catch {
      return resolve(this.dataDir);
    }
  }

  /** Files in the project folder (listed on its machine), newest first, with the run that last wrote each one when od saw it. */
  async files(project: Project): Promise<ProjectFile[]> {
    const { machine, folder } = this.placeOf(project.path);
    return this.#withWriters(project, await machine.listFiles(folder, MAX_LISTED_FILES));
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
