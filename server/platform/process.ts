/**
 * Child processes, the one way the engine starts anything: Bun's own spawn under Bun (spawn-bun.ts), and
 * `node:child_process` elsewhere (spawn-node.ts, loaded only there), behind one ChildHandle.
 */
import type { ChildHandle, SpawnOptions } from "./child.ts";
import { spawnWithBun, type BunSpawn } from "./spawn-bun.ts";

export { SpawnError, type ChildExit, type ChildHandle, type ChildStdin, type SpawnOptions } from "./child.ts";

const bun = (globalThis as { Bun?: { spawn: BunSpawn } }).Bun;
const bunSpawn: BunSpawn | undefined = bun && ((argv, options) => bun.spawn(argv, options));

/**
 * Start a child. Resolves once the OS has started it (or rejects with a SpawnError), so a missing executable
 * is an error at the call site rather than an event later.
 */
export function spawnChild(options: SpawnOptions): Promise<ChildHandle> {
  if (bunSpawn) return spawnWithBun(bunSpawn, options);
  return import("./spawn-node.ts").then(({ spawnWithNode }) => spawnWithNode(options));
}
