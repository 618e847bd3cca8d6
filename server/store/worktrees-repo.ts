/** Conversations' worktrees (one each, kept across its runs) and run groups (one prompt, several agents). */
import type { ApplyMode, WorktreeInfo } from "../contracts/worktrees.ts";
import type { SqliteDatabase, SqlRow } from "./sqlite.ts";

/** A worktree as stored: what the page sees, and what git needs to read it (its prefix). */
export type StoredWorktree = WorktreeInfo & { conversationId: string; projectId: string; prefix: string };

export type NewWorktreeRecord = Omit<StoredWorktree, "state" | "createdAt" | "appliedAt" | "appliedMode" | "discardedAt">;

const nullableNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A worktree's row as the page sees it; `column` prefixes its columns' names (`wt_` where runs join it). */
export function worktreeInfoOf(r: SqlRow, column = ""): WorktreeInfo {
  const at = (name: string) => r[column + name];
  const appliedAt = nullableNumber(at("applied_at"));
  const discardedAt = nullableNumber(at("discarded_at"));
  const appliedMode = at("applied_mode");
  return {
    branch: String(at("branch")),
    folder: String(at("folder")),
    base: String(at("base")),
    head: String(at("head")),
    carriedPaths: Number(at("carried_paths")),
    state: discardedAt !== null ? "discarded" : appliedAt !== null ? "applied" : "active",
    createdAt: Number(at("created_at")),
    appliedAt,
    appliedMode: appliedMode === null || appliedMode === undefined ? null : (String(appliedMode) as ApplyMode),
    discardedAt,
  };
}

function toWorktree(r: SqlRow): StoredWorktree {
  return { ...worktreeInfoOf(r), conversationId: String(r.conversation_id), projectId: String(r.project_id), prefix: String(r.prefix) };
}

/** The page's view of a stored worktree (its prefix and ids left out). */
export function worktreeInfo({ conversationId: _c, projectId: _p, prefix: _x, ...info }: StoredWorktree): WorktreeInfo {
  return info;
}

export class WorktreesRepo {
  constructor(private readonly db: SqliteDatabase) {}

  add(worktree: NewWorktreeRecord): void {
    this.db
      .prepare("INSERT INTO worktrees (conversation_id, project_id, folder, branch, base, head, prefix, carried_paths, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .run(worktree.conversationId, worktree.projectId, worktree.folder, worktree.branch, worktree.base, worktree.head, worktree.prefix, worktree.carriedPaths, Date.now());
  }

  ofConversation(conversationId: string): StoredWorktree | undefined {
    const row = this.db.prepare("SELECT * FROM worktrees WHERE conversation_id = ?").get(conversationId);
    return row ? toWorktree(row) : undefined;
  }

  /** The project's worktrees, newest first; discarded ones only when asked. */
  ofProject(projectId: string, options: { discarded?: boolean } = {}): StoredWorktree[] {
    const where = options.discarded ? "" : " AND discarded_at IS NULL";
    return this.db.prepare(`SELECT * FROM worktrees WHERE project_id = ?${where} ORDER BY created_at DESC`).all(projectId).map(toWorktree);
  }

  /** Every project that has a worktree not discarded (the start of od prunes their checkouts). */
  projectsWithWorktrees(): string[] {
    return this.db.prepare("SELECT DISTINCT project_id FROM worktrees WHERE discarded_at IS NULL").all().map((r) => String(r.project_id));
  }

  markApplied(conversationId: string, mode: ApplyMode): void {
    this.db.prepare("UPDATE worktrees SET applied_at = ?, applied_mode = ? WHERE conversation_id = ?").run(Date.now(), mode, conversationId);
  }

  markDiscarded(conversationId: string): void {
    this.db.prepare("UPDATE worktrees SET discarded_at = ? WHERE conversation_id = ?").run(Date.now(), conversationId);
  }
}

export type StoredRunGroup = { id: string; projectId: string; message: string; base: string | null; createdAt: number };

export class RunGroupsRepo {
  constructor(private readonly db: SqliteDatabase) {}

  add(group: Omit<StoredRunGroup, "createdAt">): void {
    this.db.prepare("INSERT INTO run_groups (id, project_id, message, base, created_at) VALUES (?, ?, ?, ?, ?)").run(group.id, group.projectId, group.message, group.base, Date.now());
  }

  setBase(id: string, base: string): void {
    this.db.prepare("UPDATE run_groups SET base = ? WHERE id = ?").run(base, id);
  }

  delete(id: string): void {
    this.db.prepare("DELETE FROM run_groups WHERE id = ?").run(id);
  }

  get(id: string): StoredRunGroup | undefined {
    const row = this.db.prepare("SELECT * FROM run_groups WHERE id = ?").get(id);
    return row
      ? { id: String(row.id), projectId: String(row.project_id), message: String(row.message), base: row.base === null ? null : String(row.base), createdAt: Number(row.created_at) }
      : undefined;
  }

  /** The ids of the group's runs, in the order they were made. */
  runIds(groupId: string): string[] {
    return this.db.prepare("SELECT id FROM runs WHERE group_id = ? ORDER BY created_at, rowid").all(groupId).map((r) => String(r.id));
  }
}
