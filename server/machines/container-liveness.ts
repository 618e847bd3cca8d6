/**
 * A container that stops answering while a run is in it: `docker pause` freezes the agent and its `docker exec`
 * client waits forever, where an ssh host that hangs is noticed through ServerAlive in about 45–60 s. A run in a
 * container gets the same bound: its container's state is asked every quarter of it, and a container that has been
 * paused, stopped or silent for the whole bound ends the run as a lost connection.
 */
import { spawnChild } from "../platform/process.ts";
import type { DockerLocation } from "./machine-url.ts";
import { clientEnv, type RemoteContext } from "./remote-exec.ts";

/** The bound a run in a container gets, like ssh's ServerAliveInterval × ServerAliveCountMax (transport-argv.ts). */
export const CONTAINER_LIVENESS_MS = 60_000;

type ContainerState = "running" | "paused" | "stopped" | "silent";

/** Calls `lost` once when the container has not been running for `boundMs`; returns the function that stops watching. */
export function watchContainer(location: DockerLocation, context: RemoteContext, lost: (why: string) => void, boundMs = context.livenessMs ?? CONTAINER_LIVENESS_MS): () => void {
  const everyMs = Math.max(100, Math.floor(boundMs / 4));
  let unwellSince: number | undefined;
  // What docker last said while unwell: a loaded machine can make one `docker inspect` late, which must not turn a
  // container seen paused into one that merely "did not answer".
  let lastSaid: Exclude<ContainerState, "running" | "silent"> | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    const state = await containerState(location, context, everyMs);
    if (stopped) return;
    const now = Date.now();
    if (state === "running") {
      unwellSince = undefined;
      lastSaid = undefined;
    } else {
      unwellSince ??= now;
      if (state !== "silent") lastSaid = state;
    }
    if (unwellSince !== undefined && now - unwellSince >= boundMs) {
      stopped = true;
      const said = state === "silent" ? lastSaid : state;
      lost(said ? `the container is ${said}` : `the container did not answer for ${Math.round(boundMs / 1000)} s`);
      return;
    }
    timer = setTimeout(() => void check(), everyMs);
  };
  timer = setTimeout(() => void check(), everyMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** What docker says of the container, or `silent` when it did not say in time. */
async function containerState(location: DockerLocation, context: RemoteContext, timeoutMs: number): Promise<ContainerState> {
  const child = await spawnChild({ argv: ["docker", "inspect", "--format", "{{.State.Running}} {{.State.Paused}}", location.container], env: clientEnv(context.env), stdin: "ignore", ownProcessGroup: true }).catch(() => undefined);
  if (!child) return "silent";
  const output = (async () => {
    let text = "";
    for await (const chunk of child.stdout) text += new TextDecoder().decode(chunk);
    return text;
  })().catch(() => "");
  void (async () => {
    for await (const _ of child.stderr);
  })().catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
  const exit = await Promise.race([child.exited, late]);
  clearTimeout(timer);
  if (exit === "late") {
    child.kill("SIGKILL", { group: true });
    return "silent";
  }
  const [running, paused] = (await output).trim().split(" ");
  if (exit.code !== 0) return "stopped";
  return paused === "true" ? "paused" : running === "true" ? "running" : "stopped";
}
