export { startup, startup as default, USAGE } from "./index.mjs";
export type { StartupContext, Harness, HarnessEvent } from "./index.mjs";
