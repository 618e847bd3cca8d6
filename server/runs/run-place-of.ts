/** The one place that chooses how a run works with its folder: in od's process on this machine, by scripts on any other. */
import type { MachinePlace } from "../machines/machine.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import { LocalRunPlace } from "./local-run-place.ts";
import type { RunPlace, RunPlaceDeps } from "./run-place.ts";
import type * as ScriptedRunPlaceModule from "./scripted-run-place.ts";

/** The scripted place (and the remote scripts it runs) is evaluated for the first run on another machine. */
const scriptedRunPlace = loadOnFirstUse<typeof ScriptedRunPlaceModule>(import.meta.url, "./scripted-run-place.ts", () => require("./scripted-run-place.ts"));

export function runPlaceOf({ machine, folder }: MachinePlace, deps: RunPlaceDeps): RunPlace {
  return machine.kind === "local" ? new LocalRunPlace(machine, folder, deps) : new (scriptedRunPlace().ScriptedRunPlace)(machine, folder, deps);
}
