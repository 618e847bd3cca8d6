/** The one place that chooses how a run works with its folder: in od's process on this machine, by scripts on any other. */
import type { MachinePlace } from "../machines/machine.ts";
import { LocalRunPlace } from "./local-run-place.ts";
import type { RunPlace, RunPlaceDeps } from "./run-place.ts";
import { ScriptedRunPlace } from "./scripted-run-place.ts";

export function runPlaceOf({ machine, folder }: MachinePlace, deps: RunPlaceDeps): RunPlace {
  return machine.kind === "local" ? new LocalRunPlace(machine, folder, deps) : new ScriptedRunPlace(machine, folder, deps);
}
