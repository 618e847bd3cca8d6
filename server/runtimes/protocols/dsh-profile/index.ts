/** DSH profile transport (JSONL profile protocol v1): session, state machine, frames, models and probe parsing. */
export { startDshProfileSession, type DshProfileOptions } from "./session.ts";
export { DshProfileStateMachine, toModelRef, type DshRunPlan, type Step } from "./state-machine.ts";
export { DshProfileErrorCode, MAX_FRAME_BYTES } from "./errors.ts";
export { parseFrame, type HostCommand, type ProfileFrame } from "./frames.ts";
export { parseDshModels, pickReasoningEffort, type DshModel } from "./models.ts";
export { parseDshProbe, type DshProbeParse } from "./probe.ts";
