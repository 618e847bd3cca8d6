/**
 * What authenticates a request to od (DESIGN.md "Security model"):
 * - the API token (random per launch, or OD_TOKEN): `Authorization: Bearer` for scripts and `od open`, which reads
 *   it from the daemon's 0600 file in the data dir (server/daemon-file.ts); never printed, never in any argv;
 * - launch codes: one-time codes, in memory only, in the URL od prints and in the 0600 redirect file it opens the
 *   browser on (`/?token=CODE`); the page trades one for
 * - a session secret (`POST /api/session`), kept in the page's origin-scoped localStorage and sent as a bearer
 *   header on every `/api` call. Only its SHA-256 is stored, in od.db, so a session outlives a restart of od; it
 *   ends when signed out, when every session is signed out, or after 30 days unused. Nothing rides in a cookie: a
 *   browser sends cookies to every port of 127.0.0.1;
 * - file tickets: short-lived capability URLs for one project file, for `<iframe>`/`<img>` that cannot send headers.
 * Secrets are compared through Map lookups and indexed hash lookups of 192-bit random values; the API token, which a
 * user may choose, with a constant-time compare.
 */
import { sha256 } from "../node-crypto.ts";

/** How long the printed launch code stays usable while nobody uses it (it is shown only on od's own stdout). */
export const LAUNCH_CODE_TTL_MS = 24 * 60 * 60 * 1000;
/** The code od hands a browser it opens (through a redirect file only od's user can read) dies within minutes. */
export const OPENED_CODE_TTL_MS = 2 * 60 * 1000;
/** A sign-in link a signed-in page (or `od open`) asks for. */
export const LINK_CODE_TTL_MS = 10 * 60 * 1000;
export const FILE_TICKET_TTL_MS = 10 * 60 * 1000;
/** A session nobody used for this long is over. */
export const SESSION_IDLE_LIMIT_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's last use is written at most this often (every API call and stream would otherwise write to od.db). */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;
/** Signed-in browsers kept; past this the least recently used is signed out. */
const MAX_SESSIONS = 256;
const MAX_PENDING_CODES = 32;
const MAX_FILE_TICKETS = 512;

/** Where sessions live (server/store/sessions-repo.ts over od.db), keyed by the hash of their secret. */
export interface SessionStore {
  insert(secretHash: string, now: number): void;
  lastUsed(secretHash: string): number | undefined;
  touch(secretHash: string, now: number): void;
  delete(secretHash: string): void;
  deleteAll(): number;
  prune(unusedSince: number, keep: number): void;
}

export type FileTicketScope = { pathname: string; path: string };

export class Credentials {
  readonly #tokenBytes: Uint8Array;
  readonly #codes = new Map<string, number>();
  #sessions: SessionStore | undefined;
  readonly #tickets = new Map<string, FileTicketScope & { expiresAt: number }>();

  constructor(
    apiToken: string,
    private readonly now: () => number = Date.now,
  ) {
    this.#tokenBytes = new TextEncoder().encode(apiToken);
  }

  /** Sessions are checked and kept in `store` from now on (the daemon opens od.db after it starts listening). */
  keepSessionsIn(store: SessionStore): void {
    this.#sessions = store;
  }

  /** False until `keepSessionsIn`: a session secret cannot be told from a wrong one yet. */
  get sessionsOpen(): boolean {
    return this.#sessions !== undefined;
  }

  /** A new one-time launch code, usable once within `ttlMs`. */
  issueLaunchCode(ttlMs = LAUNCH_CODE_TTL_MS): { code: string; expiresAt: number } {
    this.#prune(this.#codes, (expiresAt) => expiresAt, MAX_PENDING_CODES);
    const code = randomSecret();
    const expiresAt = this.now() + ttlMs;
    this.#codes.set(code, expiresAt);
    return { code, expiresAt };
  }

  /** Trades a launch code for a new session secret; the code is dead afterwards, whatever the outcome. */
  redeem(code: string): string | undefined {
    const expiresAt = this.#codes.get(code);
    this.#codes.delete(code);
    if (expiresAt === undefined || expiresAt <= this.now()) return undefined;
    const store = this.#openSessions();
    const now = this.now();
    store.prune(now - SESSION_IDLE_LIMIT_MS, MAX_SESSIONS - 1);
    const secret = randomSecret();
    store.insert(secretHash(secret), now);
    return secret;
  }

  /** True for the API token or a live session secret (whose last use it records, at most once a minute). */
  authenticates(secret: string | undefined): boolean {
    if (!secret) return false;
    const bytes = new TextEncoder().encode(secret);
    if (bytes.length === this.#tokenBytes.length && constantTimeEqual(bytes, this.#tokenBytes)) return true;
    const store = this.#sessions;
    if (!store) return false;
    const hash = secretHash(secret);
    const lastUsed = store.lastUsed(hash);
    if (lastUsed === undefined) return false;
    const now = this.now();
    if (now - lastUsed >= SESSION_IDLE_LIMIT_MS) {
      store.delete(hash);
      return false;
    }
    if (now - lastUsed >= SESSION_TOUCH_INTERVAL_MS) store.touch(hash, now);
    return true;
  }

  /** Ends a session (sign out). */
  revoke(secret: string): void {
    this.#sessions?.delete(secretHash(secret));
  }

  /** Ends every session (sign out everywhere); returns how many there were. */
  revokeAll(): number {
    return this.#openSessions().deleteAll();
  }

  /** A capability for GETs of exactly `scope` (a route path and its `path` query value) for a short while. */
  issueFileTicket(scope: FileTicketScope): { ticket: string; expiresAt: number } {
    this.#prune(this.#tickets, (entry) => entry.expiresAt, MAX_FILE_TICKETS);
    const ticket = randomSecret();
    const expiresAt = this.now() + FILE_TICKET_TTL_MS;
    this.#tickets.set(ticket, { ...scope, expiresAt });
    return { ticket, expiresAt };
  }

  fileTicketAllows(ticket: string, scope: FileTicketScope): boolean {
    const entry = this.#tickets.get(ticket);
    if (!entry) return false;
    if (entry.expiresAt <= this.now()) {
      this.#tickets.delete(ticket);
      return false;
    }
    return entry.pathname === scope.pathname && entry.path === scope.path;
  }

  #openSessions(): SessionStore {
    if (!this.#sessions) throw new Error("sessions are not open yet (od.db is still opening)");
    return this.#sessions;
  }

  /** Drops expired entries, then the oldest ones while the map is full (insertion order is age). */
  #prune<V>(map: Map<string, V>, expiry: (value: V) => number, max: number): void {
    const now = this.now();
    for (const [key, value] of map) if (expiry(value) <= now) map.delete(key);
    while (map.size >= max) map.delete(map.keys().next().value!);
  }
}

/** 192 random bits, URL-safe base64. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

/** What is stored of a session secret: its SHA-256, hex. */
export function secretHash(secret: string): string {
  return sha256().update(secret).digest("hex");
}

/** Byte equality whose time does not depend on where the inputs differ (node:crypto's timingSafeEqual, without its start-up cost). */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
