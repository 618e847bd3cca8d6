/**
 * Signing this page in. The URL od prints carries a one-time launch code (`?token=`); the page trades it for a
 * session secret (`POST /api/session`) and keeps that in localStorage, which browsers scope to scheme + host + port:
 * another port of 127.0.0.1, or a second od, never sees it (a cookie would reach them all). The secret then goes
 * out as `Authorization: Bearer` on every API call, the event streams included.
 */
import type { CreateSessionResponse } from "../../server/contracts/session.ts";

const STORAGE_KEY = "od.session";

/** Where the page keeps its secret; tests pass a Map-backed one. */
export type SecretStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** Why the URL's code did not sign the page in (used already, expired, from another od), if it did not. */
export type SignInOutcome = { refused?: string };

export class BrowserSession {
  constructor(private readonly storage: SecretStorage | undefined) {}

  /** The secret to send, if any. */
  secret(): string | null {
    try {
      return this.storage?.getItem(STORAGE_KEY) ?? null;
    } catch {
      return null; // storage disabled: the page works signed out
    }
  }

  forget(): void {
    try {
      this.storage?.removeItem(STORAGE_KEY);
    } catch {
      /* nothing stored */
    }
  }

  /**
   * Trades the launch code in `search` (the page's `location.search`), if there is one, for a session secret.
   * `fetchImpl` is the plain fetch: this call authenticates by the code alone.
   */
  async signIn(search: string, fetchImpl: typeof fetch): Promise<SignInOutcome> {
    const code = new URLSearchParams(search).get("token");
    if (!code) return {};
    const res = await fetchImpl("/api/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code }),
    });
    const body = (await res.json().catch(() => null)) as (CreateSessionResponse & { error?: { message?: string } }) | null;
    // A refused code keeps any stored secret: a reload of a used link, or a second tab, is still signed in.
    if (!res.ok || !body?.secret) return { refused: body?.error?.message ?? `sign-in failed (HTTP ${res.status})` };
    try {
      this.storage?.setItem(STORAGE_KEY, body.secret);
    } catch {
      return { refused: "this browser does not let the page keep its sign-in (site storage is disabled)" };
    }
    return {};
  }
}

/** The page's storage, when the browser allows it. */
export function pageStorage(): SecretStorage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
