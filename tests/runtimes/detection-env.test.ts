/** Probes run under the environment a run of the same agent gets: `agentCliEnv`, credentials policy, profile env. */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { detectAgent, type DetectionDeps } from "../../server/runtimes/detection.ts";
import { agentChildEnv, RUN_COOKIE_VAR, spawnEnvForAgent } from "../../server/runtimes/env.ts";
import { parseLocalProfiles } from "../../server/runtimes/local-profiles.ts";
import { parseCursorAgentModels } from "../../server/runtimes/models.ts";
import { fakePath, testDef, writeFakeCli } from "../support/agents-fake-cli.ts";
import { tempDir } from "../support/temp.ts";

const tmp = tempDir("od-detect-env-");
afterAll(() => tmp[Symbol.dispose]());
const bin = join(tmp.path, "bin");
const daemonEnv = { PATH: fakePath(bin), HOME: tmp.path, OD_FAKE_SERVICE_API_KEY: "daemon-key" };

// Its model list and its "version" come from its environment, like a CLI reading its config dir or API key.
writeFakeCli(
  bin,
  "od-fake-envy",
  `case "$1" in
  --version) echo "key=\${OD_FAKE_SERVICE_API_KEY:-none}";;
  models) printf 'Available models\\n\\n%s - Configured\\n' "\${OD_FAKE_MODEL:-base-model}";;
esac`,
);
const base = testDef("envy", { listModels: { args: ["models"], parse: parseCursorAgentModels } });
const profile = parseLocalProfiles(JSON.stringify([{ id: "my-envy", baseAgent: "envy" }]), [base], "agents.local.json").defs[0]!;
const configured: Record<string, Record<string, string>> = { "my-envy": { OD_FAKE_MODEL: "profile-model", OD_FAKE_SERVICE_API_KEY: "profile-key" } };
const deps: DetectionDeps = { env: daemonEnv, homeDir: tmp.path, configuredEnv: (id) => configured[id] };

test("models and credentials configured for an agent through agentCliEnv show in its probes", async () => {
  const { info, liveModels } = await detectAgent(profile, deps);
  expect(liveModels?.map((model) => model.id)).toEqual(["default", "profile-model"]);
  expect(info.modelsSource).toBe("live");
  expect(info.version).toBe("key=profile-key");
});

test("a local profile over another agent does not show that agent's models, nor the other way round", async () => {
  const { liveModels } = await detectAgent(base, deps);
  expect(liveModels?.map((model) => model.id)).toEqual(["default", "base-model"]);
});

test("a daemon credential the agent does not read reaches its probes no more than its runs", async () => {
  const { info } = await detectAgent(base, deps);
  expect(info.version).toBe("key=none");
  const { [RUN_COOKIE_VAR]: cookie, ...runEnv } = spawnEnvForAgent(profile, daemonEnv, configured["my-envy"], "run_1");
  expect(cookie).toBe("run_1");
  expect(agentChildEnv(profile, daemonEnv, configured["my-envy"])).toEqual(runEnv);
});
