/**
 * The in-process agent catalog: the latest detection pass (AgentInfo list, capability map, live models), with
 * single-flight scans so concurrent callers (startup warm-up, the HTTP list, the SSE stream, rescan) share one pass.
 */
import type { AgentDiagnostic, AgentInfo } from "../contracts/agents.ts";
import type { EnvMap, RuntimeAgentDef, RuntimeModelOption } from "./types.ts";
import { AGENT_DEFS, LOCAL_PROFILE_DIAGNOSTICS } from "./registry.ts";
import { discoverAcpModels } from "./protocols/acp/discover-models.ts";
import { CapabilityMemory } from "./capabilities.ts";
import { LiveModelMemory } from "./models.ts";
import { detectAgentsStream, type DetectedAgent, type DetectionDeps } from "./detection.ts";

/** One detection pass that any number of readers can follow while it runs. */
class DetectionPass {
  readonly settled: DetectedAgent[] = [];
  readonly done: Promise<DetectedAgent[]>;
  #finished = false;
  #waiters: Array<() => void> = [];

  constructor(defs: readonly RuntimeAgentDef[], deps: DetectionDeps, onSettle: (agent: DetectedAgent) => void) {
    this.done = (async () => {
      try {
        for await (const agent of detectAgentsStream(defs, deps)) {
          onSettle(agent);
          this.settled.push(agent);
          this.#wake();
        }
      } finally {
        this.#finished = true;
        this.#wake();
      }
      const order = new Map(defs.map((def, index) => [def.id, index]));
      return [...this.settled].sort((a, b) => (order.get(a.info.id) ?? 0) - (order.get(b.info.id) ?? 0));
    })();
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** Everything settled so far, then each new result, in settle order. */
  async *follow(): AsyncGenerator<AgentInfo> {
    for (let index = 0; ; ) {
      if (index < this.settled.length) {
        yield (this.settled[index++] as DetectedAgent).info;
        continue;
      }
      if (this.#finished) return;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
}

export type AgentCatalogOptions = {
  defs: readonly RuntimeAgentDef[];
  /** Read at the start of each pass, so env changes (a new `*_BIN`) apply on rescan. */
  deps: () => DetectionDeps;
  /** Local-profile problems to report alongside the list. */
  profileDiagnostics?: readonly AgentDiagnostic[];
};

/** Holds the latest detection results of this process. */
export class AgentCatalog {
  readonly defs: readonly RuntimeAgentDef[];
  readonly profileDiagnostics: readonly AgentDiagnostic[];
  readonly capabilities = new CapabilityMemory();
  readonly liveModels = new LiveModelMemory();
  #deps: () => DetectionDeps;
  #latest: AgentInfo[] | undefined;
  #latestAt = 0;
  #current: DetectionPass | undefined;

  constructor(options: AgentCatalogOptions) {
    this.defs = options.defs;
    this.#deps = options.deps;
    this.profileDiagnostics = options.profileDiagnostics ?? [];
  }

  #start(): DetectionPass {
    if (this.#current) return this.#current;
    const pass = new DetectionPass(this.defs, this.#deps(), (agent) => {
      this.capabilities.set(agent.info.id, agent.capabilities);
      this.liveModels.remember(agent.info.id, agent.liveModels);
    });
    this.#current = pass;
    void pass.done.then(
      (agents) => {
        this.#latest = agents.map((agent) => agent.info);
        this.#latestAt = Date.now();
      },
      () => undefined,
    ).finally(() => {
      if (this.#current === pass) this.#current = undefined;
    });
    return pass;
  }

  /** Start a pass in the background unless one is running (startup warm-up). */
  warm(): Promise<void> {
    return this.#start().done.then(() => undefined);
  }

  /** Latest results; waits for a running pass, or runs the first one. */
  async list(): Promise<AgentInfo[]> {
    if (this.#current) return (await this.#current.done).map((agent) => agent.info);
    if (this.#latest) return this.#latest;
    return (await this.#start().done).map((agent) => agent.info);
  }

  /** A fresh pass (or the one already running); concurrent callers share it. */
  async rescan(): Promise<AgentInfo[]> {
    return (await this.#start().done).map((agent) => agent.info);
  }

  /**
   * Results of the running pass, each as it settles; or of a pass finished within `maxAgeMs` (every page load
   * opens this stream: replaying a fresh result spares probing every CLI again); else of a new pass.
   */
  stream(maxAgeMs = 30_000): AsyncGenerator<AgentInfo> {
    if (!this.#current && this.#latest && Date.now() - this.#latestAt < maxAgeMs) return replay(this.#latest);
    return this.#start().follow();
  }

  /** Latest info of one agent, without waiting. */
  peek(id: string): AgentInfo | undefined {
    return this.#latest?.find((agent) => agent.id === id);
  }

  /** Live models of an agent from the last pass (model-id validation). */
  models(id: string): RuntimeModelOption[] | undefined {
    return this.liveModels.get(id);
  }
}

/** The catalog of this process: shipped defs + local profiles, probed under `env`. */
export function createAgentCatalog(env: EnvMap = process.env): AgentCatalog {
  return new AgentCatalog({
    defs: AGENT_DEFS,
    profileDiagnostics: LOCAL_PROFILE_DIAGNOSTICS,
    deps: () => ({ env, discoverAcpModels }),
  });
}

async function* replay(agents: readonly AgentInfo[]): AsyncGenerator<AgentInfo> {
  yield* agents;
}
