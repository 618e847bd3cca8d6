/**
 * The agents of the open project's machine: this machine's for a local project, the host's or the container's for a
 * remote one (each machine's inventory loaded the first time a project there is opened, then kept). The picker, the
 * models and reasoning it offers, the empty state and Send all read this, so what they offer is what a run there can
 * use.
 */
import { computed, effect, type ReadonlySignal } from "@preact/signals";
import type { Project } from "../../server/contracts/projects.ts";
import type { Api } from "../api/client.ts";
import { createAgentsModel, machineOf, type AgentsView } from "./agents.ts";

type AgentsModel = ReturnType<typeof createAgentsModel>;

export function createProjectAgentsModel(api: Api, project: ReadonlySignal<Project | null>) {
  const local = createAgentsModel(api);
  const machines = new Map<string, AgentsModel>();

  function modelOf(machine: string | null): AgentsModel {
    if (!machine) return local;
    let model = machines.get(machine);
    if (!model) {
      model = createAgentsModel(api, machine);
      machines.set(machine, model);
    }
    return model;
  }

  const current = computed(() => modelOf(machineOf(project.value?.path)), { name: "projectAgents.current" });
  // A machine's inventory is looked for the first time a project there is open (this machine's: by `start`).
  const stopLoading = effect(() => {
    const model = current.value;
    if (model !== local && model.load.peek() === "idle") void model.refresh();
  });

  const view: AgentsView & { local: AgentsModel; dispose(): void } = {
    local,
    agents: computed(() => current.value.agents.value),
    load: computed(() => current.value.load.value),
    error: computed(() => current.value.error.value),
    rescanning: computed(() => current.value.rescanning.value),
    rescanProgress: computed(() => current.value.rescanProgress.value),
    groups: computed(() => current.value.groups.value),
    available: computed(() => current.value.available.value),
    probing: computed(() => current.value.probing.value),
    pickable: computed(() => current.value.pickable.value),
    suggestedCommands: computed(() => current.value.suggestedCommands.value),
    installSuggestions: computed(() => current.value.installSuggestions.value),
    get where() {
      return current.value.where;
    },
    refresh: () => current.peek().refresh(),
    rescan: () => current.peek().rescan(),
    byId: (id) => current.value.byId(id),
    dispose() {
      stopLoading();
      local.dispose();
      for (const model of machines.values()) model.dispose();
    },
  };
  return view;
}
export type ProjectAgentsModel = ReturnType<typeof createProjectAgentsModel>;
