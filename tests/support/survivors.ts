/**
 * Which processes a test started are still alive, by PID: the fake CLIs and their grandchildren named in the fake's
 * ledger, and anything still carrying a run's cookie. Zombies count as dead (they have exited; only their parent's
 * reaping is pending). `killSurvivors` is every such test's cleanup, so a failing assertion never leaks a process.
 */
import { existsSync, readFileSync } from "node:fs";
import { processesWithRunCookie } from "./fake-agents.ts";

export function isLivePid(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Every pid the fake CLI recorded in its ledger: its own and each orphan it started. */
export function ledgerPids(ledgerPath: string): number[] {
  if (!existsSync(ledgerPath)) return [];
  const pids = new Set<number>();
  for (const line of readFileSync(ledgerPath, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { pid?: number; orphanPid?: number };
    if (entry.pid) pids.add(entry.pid);
    if (entry.orphanPid) pids.add(entry.orphanPid);
  }
  return [...pids];
}

/** Live processes among the ledger's pids and the carriers of each run's cookie. */
export function survivors(ledgerPath: string, runIds: readonly string[] = []): number[] {
  const pids = new Set([...ledgerPids(ledgerPath), ...runIds.flatMap(processesWithRunCookie)]);
  return [...pids].filter(isLivePid).sort((a, b) => a - b);
}

/** SIGKILL whatever `survivors` reports (test cleanup). */
export function killSurvivors(ledgerPath: string, runIds: readonly string[] = []): void {
  for (const pid of survivors(ledgerPath, runIds)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
}
