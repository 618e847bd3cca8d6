import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Credentials, FILE_TICKET_TTL_MS, LAUNCH_CODE_TTL_MS, OPENED_CODE_TTL_MS, secretHash, SESSION_IDLE_LIMIT_MS, SESSION_TOUCH_INTERVAL_MS } from "../../server/http/credentials.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { openDatabase } from "../../server/store/database.ts";
import { SessionsRepo } from "../../server/store/sessions-repo.ts";
import { tempDir } from "../support/temp.ts";

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

/** Credentials keeping their sessions in a fresh od.db (in memory unless a path is given). */
function withSessions(credentials: Credentials, path = ":memory:"): { credentials: Credentials; sessions: SessionsRepo; close(): void } {
  const db = openDatabase(path, openBunSqlite);
  const sessions = new SessionsRepo(db);
  credentials.keepSessionsIn(sessions);
  return { credentials, sessions, close: () => db.close() };
}

describe("credentials", () => {
  test("a launch code trades once, and not after its time", () => {
    const time = clock();
    const { credentials } = withSessions(new Credentials("api", time.now));
    const printed = credentials.issueLaunchCode();
    const opened = credentials.issueLaunchCode(OPENED_CODE_TTL_MS);
    expect(printed.expiresAt - time.state.now).toBe(LAUNCH_CODE_TTL_MS);
    time.state.now += OPENED_CODE_TTL_MS;
    expect(credentials.redeem(opened.code)).toBeUndefined(); // the one on a browser's argv died within minutes
    const secret = credentials.redeem(printed.code);
    expect(secret).toMatch(/^[\w-]{32}$/);
    expect(credentials.redeem(printed.code)).toBeUndefined();
    expect(credentials.authenticates(secret)).toBe(true);
    expect(credentials.authenticates(printed.code)).toBe(false);
  });

  test("the API token authenticates; near misses and empty values do not", () => {
    const credentials = new Credentials("api-token");
    expect(credentials.authenticates("api-token")).toBe(true);
    for (const wrong of ["api-toke", "api-tokenn", "API-TOKEN", "", undefined]) expect(credentials.authenticates(wrong)).toBe(false);
  });

  test("sessions are bounded: the least recently used is dropped first; a revoked one is gone", () => {
    const time = clock();
    const { credentials } = withSessions(new Credentials("api", time.now));
    const secrets = Array.from({ length: 257 }, () => {
      time.state.now += 1;
      return credentials.redeem(credentials.issueLaunchCode().code)!;
    });
    expect(credentials.authenticates(secrets[0])).toBe(false);
    expect(credentials.authenticates(secrets[1])).toBe(true);
    expect(credentials.authenticates(secrets[256])).toBe(true);
    credentials.revoke(secrets[256]!);
    expect(credentials.authenticates(secrets[256])).toBe(false);
  });

  test("a session outlives the process: a new Credentials over the same od.db knows it, and od.db holds only its hash", () => {
    using dir = tempDir("od-sessions-");
    const path = join(dir.path, "od.db");
    const before = withSessions(new Credentials("api-1"), path);
    const secret = before.credentials.redeem(before.credentials.issueLaunchCode().code)!;
    before.close();

    const db = openDatabase(path, openBunSqlite);
    const stored = db.prepare("SELECT secret_hash FROM sessions").all().map((row) => String(row.secret_hash));
    db.close();
    expect(stored).toEqual([secretHash(secret)]);
    expect(stored[0]).not.toContain(secret);

    const after = withSessions(new Credentials("api-2"), path); // a restart: a new API token, the same data dir
    expect(after.credentials.authenticates(secret)).toBe(true);
    after.close();
  });

  test("a session unused for 30 days is over; use keeps it alive, recorded at most once a minute", () => {
    const time = clock();
    const { credentials, sessions } = withSessions(new Credentials("api", time.now));
    const kept = credentials.redeem(credentials.issueLaunchCode().code)!;
    const idle = credentials.redeem(credentials.issueLaunchCode().code)!;
    const createdAt = time.state.now;
    time.state.now += SESSION_TOUCH_INTERVAL_MS - 1;
    expect(credentials.authenticates(kept)).toBe(true);
    expect(sessions.lastUsed(secretHash(kept))).toBe(createdAt); // not written again within the minute
    time.state.now += 1;
    expect(credentials.authenticates(kept)).toBe(true);
    expect(sessions.lastUsed(secretHash(kept))).toBe(time.state.now);
    time.state.now = createdAt + SESSION_IDLE_LIMIT_MS;
    expect(credentials.authenticates(idle)).toBe(false);
    expect(sessions.lastUsed(secretHash(idle))).toBeUndefined();
    expect(credentials.authenticates(kept)).toBe(true);
  });

  test("signing out everywhere ends every session, not the API token", () => {
    const { credentials } = withSessions(new Credentials("api"));
    const secrets = [1, 2, 3].map(() => credentials.redeem(credentials.issueLaunchCode().code)!);
    expect(credentials.revokeAll()).toBe(3);
    for (const secret of secrets) expect(credentials.authenticates(secret)).toBe(false);
    expect(credentials.authenticates("api")).toBe(true);
  });

  test("before od.db is open, no session secret authenticates and no code can be traded", () => {
    const credentials = new Credentials("api");
    expect(credentials.sessionsOpen).toBe(false);
    expect(credentials.authenticates("api")).toBe(true);
    expect(credentials.authenticates("some-session-secret")).toBe(false);
    expect(() => credentials.redeem(credentials.issueLaunchCode().code)).toThrow(/not open yet/);
  });

  test("a file ticket allows exactly its scope until it expires", () => {
    const time = clock();
    const credentials = new Credentials("api", time.now);
    const scope = { pathname: "/api/projects/p1/files/raw", path: "a.html" };
    const { ticket } = credentials.issueFileTicket(scope);
    expect(credentials.fileTicketAllows(ticket, scope)).toBe(true);
    expect(credentials.fileTicketAllows(ticket, { ...scope, path: "b.html" })).toBe(false);
    expect(credentials.fileTicketAllows(ticket, { ...scope, pathname: "/api/projects/p2/files/raw" })).toBe(false);
    expect(credentials.authenticates(ticket)).toBe(false); // a ticket is no bearer credential
    time.state.now += FILE_TICKET_TTL_MS;
    expect(credentials.fileTicketAllows(ticket, scope)).toBe(false);
  });
});
