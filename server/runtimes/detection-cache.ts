/**
 * Each agent's last complete detection ("last-good"), kept so that a pass still waiting on a slow CLI can show what
 * it found last time, and so a help probe that timed out never costs a run the flags it had. The file form lives in
 * the data dir and is shared by every od process (the daemon, `od agents`, `od run`); it is best effort: a missing,
 * unreadable or foreign file is an empty cache, and a failed write is dropped.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { LastGoodDetection, type DetectionCacheFile } from "../contracts/agent-detection.ts";
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

/**
 * `<data dir>/agents-cache.json`, read once, rewritten whole (write-then-rename) on each remembered result. Entries
 * are validated one at a time, when asked for: `od run` needs one agent's, not the schema check of every agent's
 * (a dozen milliseconds of zod at each start); an entry that does not validate is absent and costs no other.
 */
export class FileDetectionCache implements DetectionCache {
  readonly file: string;
  #raw: Record<string, unknown> | undefined;
  readonly #validated = new Map<string, LastGoodDetection | undefined>();

  constructor(file: string) {
    this.file = file;
  }

  /** The file's entries, unvalidated; a missing, unreadable or foreign file has none. */
  #readRaw(): Record<string, unknown> {
    try {
      const agents = (JSON.parse(readFileSync(this.file, "utf8")) as { agents?: unknown } | null)?.agents;
      return agents && typeof agents === "object" && !Array.isArray(agents) ? (agents as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  get(agentId: string): LastGoodDetection | undefined {
    this.#raw ??= this.#readRaw();
    if (!this.#validated.has(agentId)) this.#validated.set(agentId, validEntry(this.#raw[agentId]));
    return this.#validated.get(agentId);
  }

  remember(agent: DetectedAgent, at = Date.now(), partial = false): void {
    if (!isCompleteDetection(agent) || agent.reused) return;
    // Re-read first: another od process may have written other agents since this one last looked.
    const current: DetectionCacheFile["agents"] = {};
    for (const [id, raw] of Object.entries(this.#readRaw())) {
      const entry = validEntry(raw);
      if (entry) current[id] = entry;
    }
    if (!worthKeeping(agent, partial, current[agent.info.id])) return;
    const entries = { ...current, [agent.info.id]: toLastGood(agent, at, partial) };
    this.#raw = entries;
    this.#validated.clear();
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

function validEntry(raw: unknown): LastGoodDetection | undefined {
  if (raw === undefined) return undefined;
  const parsed = LastGoodDetection.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
