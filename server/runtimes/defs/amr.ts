/** AMR (Vela) over ACP: `vela agent run --runtime opencode`; models from `vela model list --format json`. */
import type { ProbeOutput, RuntimeAgentDef } from "../types.ts";
import { parseAmrModels } from "../models.ts";
import { lazyAgentDef, THIRTY_MINUTES_MS, withDefaultModel } from "./shared.ts";

const TRANSIENT = /ECONNRESET|ETIMEDOUT|EAI_AGAIN|temporar|timed? ?out|\b50[234]\b/i;
const RETRY_DELAYS_MS = [250, 750];

function isTransient(output: ProbeOutput | null): boolean {
  return output === null || (output.exitCode !== 0 && TRANSIENT.test(`${output.stdout}\n${output.stderr}`));
}

export const amrAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "amr",
  name: "AMR (Vela)",
  bin: "vela",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel([]),
  supportsCustomModel: false,
  supportsImagePaths: true,
  streamFormat: "acp-json-rpc",
  externalMcpInjection: "acp-merge",
  defaultModelEnvVar: "VELA_DEFAULT_MODEL",
  inactivityTimeoutMs: THIRTY_MINUTES_MS,
  // `vela` ships inside the Open Design app rather than as a package of its own, so the app is where to get it.
  installUrl: "https://open-design.ai/",
  inheritedEnv: ["VELA_RUNTIME_KEY", "VELA_LINK_URL", "VELA_OPENCODE_BIN", "VELA_DEFAULT_MODEL"],
  fetchModels: async (run) => {
    let output = await run(["model", "list", "--format", "json"], { timeoutMs: 10_000 });
    for (const delay of RETRY_DELAYS_MS) {
      if (!isTransient(output)) break;
      await new Promise((done) => setTimeout(done, delay));
      output = await run(["model", "list", "--format", "json"], { timeoutMs: 10_000 });
    }
    return output && output.exitCode === 0 ? parseAmrModels(output.stdout) : null;
  },
  buildArgs: () => ["agent", "run", "--runtime", "opencode"],
}));
