/** The store: one database, opened once per process, and the repositories over it. */
import { AppConfigRepo } from "./app-config-repo.ts";
import { openDatabase } from "./database.ts";
import type { SqliteDatabase, SqliteOpener } from "./sqlite.ts";

export class Store {
  readonly appConfig: AppConfigRepo;

  private constructor(readonly db: SqliteDatabase) {
    this.appConfig = new AppConfigRepo(db);
  }

  static open(path: string, opener: SqliteOpener): Store {
    return new Store(openDatabase(path, opener));
  }

  close(): void {
    this.db.close();
  }
}
