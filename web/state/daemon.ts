/** Is the daemon reachable, and which version? A signal model the shell reads. */
import { signal } from "@preact/signals";
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

  async function check(): Promise<void> {
    try {
      const health = await api.get<{ ok: true; version: string }>("/api/health");
      // Health is open; the config call proves the page's session works.
      await api.get("/api/app-config");
      state.value = { kind: "ready", version: health.version };
    } catch (error) {
      state.value =
        error instanceof ApiError && error.status === 401
          ? { kind: "unauthorized", ...(signInRefusal ? { reason: signInRefusal } : {}) }
          : { kind: "offline", message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The page's sign-in link was refused: said with the unauthorized state if the page ends up signed out. */
  function signInRefused(reason: string): void {
    signInRefusal = reason;
  }

  return { state, check, signInRefused };
}
export type DaemonModel = ReturnType<typeof createDaemonModel>;
