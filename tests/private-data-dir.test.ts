// The data dir is private to its owner: 0700, with od.db (and its WAL files) and every file directly in it 0600.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startDaemon, type HttpServe } from "../server/daemon.ts";
import { openBunSqlite } from "../server/platform/sqlite-bun.ts";
import { preparePrivateDataDir } from "../server/private-data-dir.ts";
import { Store } from "../server/store/store.ts";
import { tempDir } from "./support/temp.ts";

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const noServe: HttpServe = () => ({ port: 40124, stop: async () => {} });

/** Starts a daemon on `dataDir` under umask 022; the dir must end 0700 and od.db with its WAL files 0600. */
async function expectDaemonLeavesItPrivate(dataDir: string): Promise<void> {
  const previous = process.umask(0o022);
  try {
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir, token: "t", openSqlite: openBunSqlite, serve: noServe, env: { PATH: "/nonexistent" } });
    await daemon.ready;
    expect(mode(dataDir)).toBe("700");
    for (const file of ["od.db", "od.db-wal", "od.db-shm"]) expect([file, mode(join(dataDir, file))]).toEqual([file, "600"]);
    await daemon.stop();
  } finally {
    process.umask(previous);
  }
}

describe("private data dir", () => {
  test("a new data dir is 0700 and od.db, -wal and -shm are 0600 whatever the umask", async () => {
    using temp = tempDir("od-private-");
    const dataDir = join(temp.path, "data");
    await expectDaemonLeavesItPrivate(dataDir);
  });

  test("an existing world-readable data dir is tightened, and each change is reported", () => {
    using temp = tempDir("od-private-old-");
    const dataDir = join(temp.path, "data");
    mkdirSync(join(dataDir, "skills"), { recursive: true });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, "skills"), 0o755);
    writeFileSync(join(dataDir, "agents.local.json"), "[]", { mode: 0o644 });
    const store = Store.open(join(dataDir, "od.db"), openBunSqlite);
    store.close();
    chmodSync(join(dataDir, "od.db"), 0o644);
    const changes = preparePrivateDataDir(dataDir);
    expect(changes).toHaveLength(4);
    expect(changes.join("\n")).toContain("od.db: 644 → 600");
    expect([mode(dataDir), mode(join(dataDir, "skills")), mode(join(dataDir, "agents.local.json")), mode(join(dataDir, "od.db"))]).toEqual(["700", "700", "600", "600"]);
    expect(preparePrivateDataDir(dataDir)).toEqual([]); // nothing left to tighten
  });

  test("a daemon started on an old world-readable data dir (od.db opened before node:fs loads) tightens it, the WAL files too", async () => {
    using temp = tempDir("od-private-daemon-old-");
    const dataDir = join(temp.path, "data");
    Store.open(join(dataDir, "od.db"), openBunSqlite).close();
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, "od.db"), 0o644);
    await expectDaemonLeavesItPrivate(dataDir);
  });
});
