/**
 * A run's agent, model, reasoning and permission mode, chosen by what detection found on the run's machine (another
 * machine's kept from a recent probe, or probed now), the person's saved choices and the project's defaults.
 */
import type { AgentInfo } from "../contracts/agents.ts";
import type { CreateRunRequest } from "../contracts/runs.ts";
import { OdError } from "../errors.ts";
import type { Machine } from "../machines/machine.ts";
import { passDeadlineFromEnv } from "../runtimes/catalog.ts";
import { MachineDetections } from "../runtimes/machine-detections.ts";
import type { EnvMap, RuntimeAgentDef, RuntimeModelOption } from "../runtimes/types.ts";
import type { Store } from "../store/store.ts";
import { chooseAgent, validateModel } from "./agent-choice.ts";
import { awaitProbingAgent, detectedOn, type DetectedAgents } from "./detected-agents.ts";
import { resolveRunPermissionMode } from "./permission-mode.ts";

/** What the run service needs to know about installed agents (the AgentCatalog provides it). */
export interface AgentDirectory {
  list(): Promise<AgentInfo[]>;
  capabilities(agentId: string): Record<string, boolean>;
  liveModels(agentId: string): RuntimeModelOption[] | undefined;
  /** One agent's real result once its running probes finish (the catalog's `probed`); absent: `list` is final. */
  probed?(agentId: string): Promise<AgentInfo | undefined>;
}

export type RunAgentChoiceDeps = {
  store: Store;
  defs: readonly RuntimeAgentDef[];
  agents: AgentDirectory;
  env: EnvMap;
  /** What detection found on other machines (default: probes of this chooser's own). */
  locations?: MachineDetections;
};

export class RunAgentChoice {
  readonly #locations: MachineDetections;

  constructor(private readonly deps: RunAgentChoiceDeps) {
    const appConfig = () => deps.store.appConfig.get();
    this.#locations =
      deps.locations ??
      new MachineDetections({
        defs: deps.defs,
        deps: () => ({ env: deps.env, configuredEnv: (id) => appConfig().agentCliEnv?.[id], machineEnv: (key) => appConfig().machineEnv?.[key], machineProbeTimeouts: (key) => appConfig().machineProbeTimeouts?.[key] }),
        deadlineMs: passDeadlineFromEnv(deps.env),
      });
  }

  /** The run's agent (refused as `create` refuses it), its model and reasoning, and its permission mode. */
  async choose(request: CreateRunRequest, projectId: string, machine: Machine) {
    const config = this.deps.store.appConfig.get();
    const { def, detected } = await this.#agentOn(machine, request.agentId, config.agentId ?? undefined);
    const saved = config.agentModels?.[def.id];
    const model = request.model === undefined ? (saved?.model ?? null) : request.model;
    const reasoning = request.reasoning === undefined ? (saved?.reasoning ?? null) : request.reasoning;
    validateModel(def, model, reasoning, detected.liveModels(def.id));
    const permissionMode = resolveRunPermissionMode(def, request.permissionMode, config, projectId, this.deps.env);
    return { def, detected, model, reasoning, permissionMode };
  }

  /** `configured`: the agent the person chose in the page, where a run that names none goes first. */
  async #agentOn(machine: Machine, agentId: string | undefined, configured: string | undefined): Promise<{ def: RuntimeAgentDef; detected: DetectedAgents }> {
    const { defs, agents } = this.deps;
    const wanted = agentId ?? configured;
    const kept = await awaitProbingAgent(await detectedOn(machine, agents, this.#locations), wanted, defs);
    try {
      return { def: chooseAgent(defs, configured, agentId, kept), detected: kept };
    } catch (error) {
      // A kept result that refuses is checked once more: the CLI may have been installed (or its PATH set) since.
      if (!kept.kept || !(error instanceof OdError) || error.code === "UNKNOWN_AGENT") throw error;
      const fresh = await awaitProbingAgent(await detectedOn(machine, agents, this.#locations, true), wanted, defs);
      return { def: chooseAgent(defs, configured, agentId, fresh), detected: fresh };
    }
  }
}
