/**
 * What authenticates a request to od, all in memory and dead when od stops (DESIGN.md "Security model"):
 * - the API token (random per launch, or OD_TOKEN): `Authorization: Bearer` for scripts; never printed;
 * - launch codes: one-time codes in the URL od prints and opens (`/?token=CODE`); the page trades one for
 * - a session secret (`POST /api/session`), kept in the page's origin-scoped localStorage and sent as a bearer
 *   header on every `/api` call. Nothing rides in a cookie: a browser sends cookies to every port of 127.0.0.1;
 * - file tickets: short-lived capability URLs for one project file, for `<iframe>`/`<img>` that cannot send headers.
 * Secrets are compared through Map/Set lookups of 192-bit random values; the API token, which a user may choose,
 * with a constant-time compare.
 */

/** How long the printed launch code stays usable while nobody uses it (it is shown only on od's own stdout). */
export const LAUNCH_CODE_TTL_MS = 24 * 60 * 60 * 1000;
/** The code od puts on a browser's command line (readable by every local user through `ps`) dies within minutes. */
export const OPENED_CODE_TTL_MS = 2 * 60 * 1000;
/** A sign-in link a signed-in page asks for, to paste into another browser. */
export const LINK_CODE_TTL_MS = 10 * 60 * 1000;
export const FILE_TICKET_TTL_MS = 10 * 60 * 1000;
const MAX_SESSIONS = 64;
const MAX_PENDING_CODES = 32;
const MAX_FILE_TICKETS = 512;

export type FileTicketScope = { pathname: string; path: string };

export class Credentials {
  readonly #tokenBytes: Uint8Array;
  readonly #codes = new Map<string, number>();
  readonly #sessions = new Set<string>();
  readonly #tickets = new Map<string, FileTicketScope & { expiresAt: number }>();

  constructor(
    apiToken: string,
    private readonly now: () => number = Date.now,
  ) {
    this.#tokenBytes = new TextEncoder().encode(apiToken);
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
    if (this.#sessions.size >= MAX_SESSIONS) this.#sessions.delete(this.#sessions.values().next().value!);
    const secret = randomSecret();
    this.#sessions.add(secret);
    return secret;
  }

  /** True for the API token or a live session secret. */
  authenticates(secret: string | undefined): boolean {
    if (!secret) return false;
    if (this.#sessions.has(secret)) return true;
    const bytes = new TextEncoder().encode(secret);
    return bytes.length === this.#tokenBytes.length && constantTimeEqual(bytes, this.#tokenBytes);
  }

  /** Ends a session (sign out). */
  revoke(secret: string): void {
    this.#sessions.delete(secret);
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

/** Byte equality whose time does not depend on where the inputs differ (node:crypto's timingSafeEqual, without its start-up cost). */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
