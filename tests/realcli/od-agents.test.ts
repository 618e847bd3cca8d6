/**
 * Detection against the pinned installs: `od agents --json` (a real process) with each CLI's recipe environment
 * reports it available with its real version, capabilities parsed from its real `--help`, and live models from
 * its real model-list command (codex `debug models`, opencode `models`, pi `--list-models`).
 */
import { describe, test } from "bun:test";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { assertOutcome } from "./known-failures.ts";
import { detectRealCli } from "./od-detection.ts";
import { afterRealClisInstalled } from "./od-suite.ts";
import { PINNED_CLI_PACKAGES, REAL_CLI_IDS, type RealCliId } from "./versions.ts";

/** What each CLI's detection must show beyond "available". */
const EXPECT: Partial<Record<RealCliId, { capabilities?: string[]; liveModel?: string }>> = {
  claude: { capabilities: ["partialMessages", "effort", "addDir"] },
  codex: { liveModel: "gpt-5.5" },
  opencode: { capabilities: ["workspaceDir", "variantFlag"], liveModel: "fakellm/fake-model" },
  pi: { liveModel: "fakellm/fake-model" },
};
/** Local profiles over an ACP def: adapters without a `--version`. */
const NO_VERSION: RealCliId[] = ["claude-code-acp", "codex-acp"];

const detectionOf = afterRealClisInstalled(REAL_CLI_IDS, 2, detectRealCli);

async function detected(cli: RealCliId): Promise<{ agent: AgentInfo; trace: string }> {
  const result = await detectionOf(cli);
  if (!result) throw new Error("detection did not run");
  const trace = `exit ${result.exitCode} in ${result.seconds} s; stderr: ${result.stderr.slice(-500)}`;
  if (!result.agent) throw new Error(`od agents --json listed no ${cli}: ${trace}\n${result.stdout.slice(0, 500)}`);
  return { agent: result.agent, trace };
}

for (const cli of REAL_CLI_IDS) {
  describe(`od agents × real ${cli}`, () => {
    test("available", async () => {
      const { agent, trace } = await detected(cli);
      const problems = agent.state === "available" ? [] : [`state ${agent.state}: ${agent.diagnostics.map((d) => d.message).join(" | ")}`];
      assertOutcome(cli, "available", { problems, details: trace });
    }, 10 * 60_000);

    if (!NO_VERSION.includes(cli)) {
      test("real version", async () => {
        const { agent, trace } = await detected(cli);
        const pinned = PINNED_CLI_PACKAGES[cli].version;
        const problems = agent.version?.includes(pinned) ? [] : [`version ${agent.version} does not name ${pinned} (probe ${agent.probeMs.version} ms)`];
        assertOutcome(cli, "version", { problems, details: trace });
      }, 10 * 60_000);
    }

    const expected = EXPECT[cli];
    if (expected?.capabilities) {
      test("capabilities from the real --help", async () => {
        const { agent, trace } = await detected(cli);
        const missing = expected.capabilities!.filter((key) => agent.capabilities[key] !== true);
        assertOutcome(cli, "capabilities", { problems: missing.length ? [`not detected: ${missing.join(", ")} (${JSON.stringify(agent.capabilities)})`] : [], details: trace });
      }, 10 * 60_000);
    }
    if (expected?.liveModel) {
      test("live models from the real model-list command", async () => {
        const { agent, trace } = await detected(cli);
        const problems: string[] = [];
        if (agent.modelsSource !== "live") problems.push(`modelsSource ${agent.modelsSource}`);
        if (!agent.models.some((model) => model.id === expected.liveModel)) problems.push(`no ${expected.liveModel} among ${agent.models.length} models`);
        assertOutcome(cli, "models", { problems, details: trace });
      }, 10 * 60_000);
    }
  });
}
