/**
 * Each agent's last complete detection ("last-good"), kept so that a pass still waiting on a slow CLI can show what
 * it found last time, and so a help probe that timed out never costs a run the flags it had. The file form lives in
 * the data dir and is shared by every od process (the daemon, `od agents`, `od run`); it is best effort: a missing,
 * unreadable or foreign file is an empty cache, and a failed write is dropped.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { DetectionCacheFile, LastGoodDetection } from "../contracts/agent-detection.ts";
import type { DetectedAgent } from "./detection.ts";
import { sameExecutable } from "./executable-stamp.ts";
import { isIntact, seal, unseal } from "../platform/text-checksum.ts";

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
 * The shape of the entries of `agents-cache.json`: entries of another format (an older od's) are not read. Change it
 * whenever LastGoodDetection's shape changes; tests/runtimes/detection-cache-format.test.ts pins that shape to it.
 */
export const DETECTION_CACHE_FORMAT = 3;

/**
 * `<data dir>/agents-cache.json`, read once, rewritten whole (write-then-rename) on each remembered result. Each entry
 * is the JSON text of a LastGoodDetection with a checksum of that text: an entry read back intact, in this format, is
 * what an od with the same entry shape wrote, so it is used as it is. Checking it against the zod schema instead cost
 * every `od run` ~4-5 ms: building the agent list's schemas it needs, for one entry. An entry that is not intact (an
 * edit, a torn write) or of another format is absent and costs no other; the next probe writes it again.
 */
export class FileDetectionCache implements DetectionCache {
  readonly file: string;
  #sealed: Record<string, unknown> | undefined;
  readonly #opened = new Map<string, LastGoodDetection | undefined>();

  constructor(file: string) {
    this.file = file;
  }

  /** The file's entries, still sealed; a missing, unreadable, foreign or other-format file has none. */
  #readSealed(): Record<string, unknown> {
    try {
      const file = JSON.parse(readFileSync(this.file, "utf8")) as { format?: unknown; agents?: unknown } | null;
      const agents = file?.format === DETECTION_CACHE_FORMAT ? file.agents : undefined;
      return agents && typeof agents === "object" && !Array.isArray(agents) ? (agents as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  get(agentId: string): LastGoodDetection | undefined {
    this.#sealed ??= this.#readSealed();
    if (!this.#opened.has(agentId)) this.#opened.set(agentId, unseal<LastGoodDetection>(this.#sealed[agentId]));
    return this.#opened.get(agentId);
  }

  remember(agent: DetectedAgent, at = Date.now(), partial = false): void {
    if (!isCompleteDetection(agent) || agent.reused) return;
    // Re-read first: another od process may have written other agents since this one last looked.
    const current: DetectionCacheFile["agents"] = {};
    for (const [id, sealed] of Object.entries(this.#readSealed())) if (isIntact(sealed)) current[id] = sealed;
    if (!worthKeeping(agent, partial, unseal<LastGoodDetection>(current[agent.info.id]))) return;
    const agents = { ...current, [agent.info.id]: seal(toLastGood(agent, at, partial)) };
    this.#sealed = agents;
    this.#opened.clear();
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(temp, JSON.stringify({ format: DETECTION_CACHE_FORMAT, agents } satisfies DetectionCacheFile), { mode: 0o600 });
      renameSync(temp, this.file);
    } catch {
      // A read-only data dir: detection works without the cache.
    }
  }
}
