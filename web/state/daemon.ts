/** Is the daemon reachable, and which version? A signal model the shell reads. */
import { signal } from "@preact/signals";
import type { AppConfig } from "../../server/contracts/app-config.ts";
import { ApiError, defaultApi, type Api } from "../api/client.ts";

export type DaemonState =
  | { kind: "connecting" }
  | { kind: "ready"; version: string }
  /** `reason`: why the sign-in link did not work, when it was the cause. */
  | { kind: "unauthorized"; reason?: string }
  | { kind: "offline"; message: string };

export function createDaemonModel(api: Api = defaultApi) {
  const state = signal<DaemonState>({ kind: "connecting" }, { name: "daemon.state" });
  let signInRefusal: string | undefined;

  /**
   * Asks both at once (a page load waits for this before anything else): health is open, and the config call proves
   * the page's session works. Resolves with that config when the daemon is ready, so the page need not ask again.
   */
  async function check(): Promise<AppConfig | undefined> {
    const [health, proof] = await Promise.allSettled([api.get<{ ok: true; version: string }>("/api/health"), api.get<{ config: AppConfig }>("/api/app-config")]);
    // An unreachable daemon is offline whatever the second call said; a reachable one refusing the session is not.
    const failure = health.status === "rejected" ? health.reason : proof.status === "rejected" ? proof.reason : undefined;
    if (health.status === "fulfilled" && proof.status === "fulfilled") {
      state.value = { kind: "ready", version: health.value.version };
      return proof.value.config;
    }
    state.value =
      failure instanceof ApiError && failure.status === 401
        ? { kind: "unauthorized", ...(signInRefusal ? { reason: signInRefusal } : {}) }
        : { kind: "offline", message: failure instanceof Error ? failure.message : String(failure) };
    return undefined;
  }

  /** The page's sign-in link was refused: said with the unauthorized state if the page ends up signed out. */
  function signInRefused(reason: string): void {
    signInRefusal = reason;
  }

  return { state, check, signInRefused };
}
export type DaemonModel = ReturnType<typeof createDaemonModel>;
