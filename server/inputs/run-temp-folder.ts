/**
 * A local run's private temp folder, for the files an agent reads by path (its MCP config, its prompt file). The temp
 * dir is shared with every other local user, so a predictable name there (`od-mcp-<run>.json`) can be planted first
 * as a symlink or a file of theirs. The folder is made with mkdtemp instead: an unguessable name, created exclusively,
 * mode 0700; the sticky temp dir keeps others from renaming it; its files are created exclusively (O_EXCL) 0600.
 * Made on first use (most runs need no file) and removed, with everything in it, when the run ends.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export class RunTempFolder {
  #path: string | undefined;

  /** `parent`: where the folder goes (the OS temp dir, looked up on first use, when absent). */
  constructor(
    private readonly runId: string,
    private readonly parent?: string,
  ) {}

  /** The folder, made on first use; throws when it cannot be made. */
  path(): string {
    return (this.#path ??= mkdtempSync(join(this.parent ?? process.getBuiltinModule("node:os").tmpdir(), `od-run-${this.runId}-`)));
  }

  /** Where a file `name` of the run goes (the folder is made now). */
  file(name: string): string {
    return join(this.path(), name);
  }

  /** Creates the file at `path` (inside the folder) with `content`, 0600; an existing file there is an error. */
  write(path: string, content: string): void {
    writeFileSync(path, content, { flag: "wx", mode: 0o600 });
  }

  /** Removes the folder and its files, if it was made; idempotent. */
  remove(): void {
    if (this.#path) rmSync(this.#path, { recursive: true, force: true });
    this.#path = undefined;
  }
}
