/** The store: one database, opened once per process, and the repositories over it. */
import { AppConfigRepo } from "./app-config-repo.ts";
import { AgentSessionsRepo, ConversationsRepo, MessagesRepo, ProjectsRepo } from "./projects-repo.ts";
import { McpConsentsRepo } from "./mcp-consents-repo.ts";
import { PendingSweepsRepo } from "./pending-sweeps-repo.ts";
import { RunChangesRepo } from "./run-changes-repo.ts";
import { RunsRepo } from "./runs-repo.ts";
import { SessionsRepo } from "./sessions-repo.ts";
import { RunGroupsRepo, WorktreesRepo } from "./worktrees-repo.ts";
import { openDatabase } from "./database.ts";
import { inTransaction, type SqliteDatabase, type SqliteOpener } from "./sqlite.ts";

/** With deferred checkpoints, the WAL pages past which a commit still checkpoints: a run of more than 32 MB of events. */
export const DEFERRED_CHECKPOINT_PAGES = 8000;

export class Store {
  readonly appConfig: AppConfigRepo;
  readonly projects: ProjectsRepo;
  readonly conversations: ConversationsRepo;
  readonly messages: MessagesRepo;
  readonly agentSessions: AgentSessionsRepo;
  readonly runs: RunsRepo;
  readonly runChanges: RunChangesRepo;
  readonly sessions: SessionsRepo;
  readonly pendingSweeps: PendingSweepsRepo;
  readonly mcpConsents: McpConsentsRepo;
  readonly worktrees: WorktreesRepo;
  readonly runGroups: RunGroupsRepo;

  private constructor(readonly db: SqliteDatabase) {
    this.appConfig = new AppConfigRepo(db);
    this.projects = new ProjectsRepo(db);
    this.conversations = new ConversationsRepo(db);
    this.messages = new MessagesRepo(db);
    this.agentSessions = new AgentSessionsRepo(db);
    this.runs = new RunsRepo(db);
    this.runChanges = new RunChangesRepo(db);
    this.sessions = new SessionsRepo(db);
    this.pendingSweeps = new PendingSweepsRepo(db);
    this.mcpConsents = new McpConsentsRepo(db);
    this.worktrees = new WorktreesRepo(db);
    this.runGroups = new RunGroupsRepo(db);
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

  /**
   * sqlite copies the WAL into the database file (a checkpoint, with its fsyncs) inside whichever commit takes the
   * WAL past 1000 pages (4 MB): a streaming run paid three or four of them on its event loop, ~40 ms of a 50k-event
   * HTTP API run. From this call on, this connection's commits checkpoint only past `DEFERRED_CHECKPOINT_PAGES`, and
   * its owner calls `checkpoint` when it is idle: the daemon, once each run has ended. (`od run` keeps sqlite's
   * default: its close checkpoints anyway, and its peak stayed ~2 MB lower with it.)
   */
  deferCheckpoints(): void {
    this.db.exec(`PRAGMA wal_autocheckpoint = ${DEFERRED_CHECKPOINT_PAGES}`);
  }

  /** Copy the WAL's committed pages into the database file now, as far as no reader still needs them (PASSIVE). */
  checkpoint(): void {
    this.db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  }

  close(): void {
    this.db.close();
  }
}
