/**
 * Each agent's last complete detection ("last-good"), kept so that a pass still waiting on a slow CLI can show what
 * it found last time, and so a help probe that timed out never costs a run the flags it had. The file form lives in
 * the data dir and is shared by every od process (the daemon, `od agents`, `od run`); it is best effort: a missing,
 * unreadable or foreign file is an empty cache, and a failed write is dropped.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { DetectionCacheFile, type LastGoodDetection } from "../contracts/agent-detection.ts";
import type { DetectedAgent } from "./detection.ts";
import { sameExecutable } from "./executable-stamp.ts";

export type { LastGoodDetection };

/** Where last-good detections are kept. */
export interface DetectionCache {
  get(agentId: string): LastGoodDetection | undefined;
  /**
   * Keep this result when it is a complete one (see `isCompleteDetection`); otherwise keep the older one. A `partial`
   * result (a run-only pass) never replaces a whole one of the same executable.
   */
  remember(agent: DetectedAgent, at?: number, partial?: boolean): void;
}

/** A result worth keeping: the CLI ran, and no probe timed out (nothing it reports is a guess). */
export function isCompleteDetection(agent: DetectedAgent): boolean {
  const { info } = agent;
  return info.state !== "unavailable" && info.state !== "probing" && !info.diagnostics.some((d) => d.reason === "probe-timeout");
}

/** Whether `agent` should replace `kept` (undefined: nothing kept yet). */
function worthKeeping(agent: DetectedAgent, partial: boolean, kept: LastGoodDetection | undefined): boolean {
  if (!isCompleteDetection(agent) || agent.reused) return false;
  if (!partial || !kept || kept.partial) return true;
  // A whole result stays unless its executable has changed since (it describes a CLI that is no longer there).
  return !!kept.executable && !!agent.executable && !sameExecutable(kept.executable, agent.executable);
}

function toLastGood(agent: DetectedAgent, at: number, partial: boolean): LastGoodDetection {
  return {
    info: agent.info,
    capabilities: agent.capabilities,
    liveModels: agent.liveModels,
    at,
    ...(agent.executable ? { executable: agent.executable } : {}),
    ...(partial ? { partial } : {}),
  };
}

/** In this process only (tests, and catalogs without a data dir). */
export class MemoryDetectionCache implements DetectionCache {
  #byAgent = new Map<string, LastGoodDetection>();

  get(agentId: string): LastGoodDetection | undefined {
    return this.#byAgent.get(agentId);
  }

  remember(agent: DetectedAgent, at = Date.now(), partial = false): void {
    if (worthKeeping(agent, partial, this.#byAgent.get(agent.info.id))) this.#byAgent.set(agent.info.id, toLastGood(agent, at, partial));
  }
}

/** `<data dir>/agents-cache.json`, read once, rewritten whole (write-then-rename) on each remembered result. */
export class FileDetectionCache implements DetectionCache {
  readonly file: string;
  #entries: DetectionCacheFile["agents"] | undefined;

  constructor(file: string) {
    this.file = file;
  }

  #read(): DetectionCacheFile["agents"] {
    try {
      const parsed = DetectionCacheFile.safeParse(JSON.parse(readFileSync(this.file, "utf8")));
      return parsed.success ? parsed.data.agents : {};
    } catch {
      return {};
    }
  }

  get(agentId: string): LastGoodDetection | undefined {
    this.#entries ??= this.#read();
    return this.#entries[agentId];
  }

  remember(agent: DetectedAgent, at = Date.now(), partial = false): void {
    if (!isCompleteDetection(agent) || agent.reused) return;
    // Re-read first: another od process may have written other agents since this one last looked.
    const current = this.#read();
    if (!worthKeeping(agent, partial, current[agent.info.id])) return;
    const entries = { ...current, [agent.info.id]: toLastGood(agent, at, partial) };
    this.#entries = entries;
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(temp, JSON.stringify({ agents: entries } satisfies DetectionCacheFile), { mode: 0o600 });
      renameSync(temp, this.file);
    } catch {
      // A read-only data dir: detection works without the cache.
    }
  }
}
