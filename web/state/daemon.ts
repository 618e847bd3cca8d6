/** Is the daemon reachable, and which version? A signal model the shell reads. */
import { signal } from "@preact/signals";
import { ApiError, defaultApi, type Api } from "../api/client.ts";

export type DaemonState =
  | { kind: "connecting" }
  | { kind: "ready"; version: string }
  | { kind: "unauthorized" }
  | { kind: "offline"; message: string };

export function createDaemonModel(api: Api = defaultApi) {
  const state = signal<DaemonState>({ kind: "connecting" }, { name: "daemon.state" });

  async function check(): Promise<void> {
    try {
      const health = await api.get<{ ok: true; version: string }>("/api/health");
      // Health is open; the config call proves the cookie works.
      await api.get("/api/app-config");
      state.value = { kind: "ready", version: health.version };
    } catch (error) {
      state.value =
        error instanceof ApiError && error.status === 401
          ? { kind: "unauthorized" }
          : { kind: "offline", message: error instanceof Error ? error.message : String(error) };
    }
  }

  return { state, check };
}
export type DaemonModel = ReturnType<typeof createDaemonModel>;
