/** The store: one database, opened once per process, and the repositories over it. */
import { AppConfigRepo } from "./app-config-repo.ts";
import { AgentSessionsRepo, ConversationsRepo, MessagesRepo, ProjectsRepo } from "./projects-repo.ts";
import { RunChangesRepo } from "./run-changes-repo.ts";
import { RunsRepo } from "./runs-repo.ts";
import { openDatabase } from "./database.ts";
import { inTransaction, type SqliteDatabase, type SqliteOpener } from "./sqlite.ts";

export class Store {
  readonly appConfig: AppConfigRepo;
  readonly projects: ProjectsRepo;
  readonly conversations: ConversationsRepo;
  readonly messages: MessagesRepo;
  readonly agentSessions: AgentSessionsRepo;
  readonly runs: RunsRepo;
  readonly runChanges: RunChangesRepo;

  private constructor(readonly db: SqliteDatabase) {
    this.appConfig = new AppConfigRepo(db);
    this.projects = new ProjectsRepo(db);
    this.conversations = new ConversationsRepo(db);
    this.messages = new MessagesRepo(db);
    this.agentSessions = new AgentSessionsRepo(db);
    this.runs = new RunsRepo(db);
    this.runChanges = new RunChangesRepo(db);
  }

  static open(path: string, opener: SqliteOpener): Store {
    return new Store(openDatabase(path, opener));
  }

  /** The store over a database `openDatabase` already opened (the daemon opens it before the engine loads). */
  static over(db: SqliteDatabase): Store {
    return new Store(db);
  }

  /** `fn` inside one write transaction: all of its writes commit together, or none if it throws. */
  transaction<T>(fn: () => T): T {
    return inTransaction(this.db, fn);
  }

  close(): void {
    this.db.close();
  }
}
