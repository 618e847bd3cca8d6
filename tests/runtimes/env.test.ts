import { describe, expect, test } from "bun:test";
import { isCredentialVar, RUN_COOKIE_VAR, spawnEnvForAgent } from "../../server/runtimes/env.ts";
import { getAgentDef, AGENT_DEFS } from "../../server/runtimes/registry.ts";

const daemonEnv = {
  PATH: "/usr/bin",
  HOME: "/home/u",
  ANTHROPIC_API_KEY: "sk-ant",
  OPENAI_API_KEY: "sk-openai",
  GITHUB_TOKEN: "ghp",
  OD_TOKEN: "od-launch-token",
  EDITOR: "vim",
};

describe("spawnEnvForAgent", () => {
  test("an agent gets the credentials its def reads, not other providers' and never od's token", () => {
    const env = spawnEnvForAgent(getAgentDef("claude")!, daemonEnv, undefined, "run_1");
    expect(env.ANTHROPIC_API_KEY).toBe("sk-ant");
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.OD_TOKEN).toBeUndefined();
    expect(env.PATH).toBe("/usr/bin");
    expect(env.EDITOR).toBe("vim");
    expect(env[RUN_COOKIE_VAR]).toBe("run_1");
  });

  test("what the user configured for the agent (agentCliEnv) always reaches it, over the daemon's", () => {
    const env = spawnEnvForAgent(getAgentDef("claude")!, daemonEnv, { OPENAI_API_KEY: "configured", ANTHROPIC_API_KEY: "other" }, "run_2");
    expect(env.OPENAI_API_KEY).toBe("configured");
    expect(env.ANTHROPIC_API_KEY).toBe("other");
  });

  test("copilot reads GitHub tokens, codex OpenAI keys", () => {
    expect(spawnEnvForAgent(getAgentDef("copilot")!, daemonEnv, undefined, "r").GITHUB_TOKEN).toBe("ghp");
    expect(spawnEnvForAgent(getAgentDef("codex")!, daemonEnv, undefined, "r").OPENAI_API_KEY).toBe("sk-openai");
    expect(spawnEnvForAgent(getAgentDef("codex")!, daemonEnv, undefined, "r").ANTHROPIC_API_KEY).toBeUndefined();
  });

  test("every def's inheritedEnv names variables (the registry cannot ship a typo'd or empty entry)", () => {
    for (const def of AGENT_DEFS) {
      for (const name of def.inheritedEnv ?? []) expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
    }
  });

  test("credential-looking names", () => {
    for (const name of ["OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "MY_SECRET", "GITLAB_PAT"]) expect(isCredentialVar(name)).toBe(true);
    for (const name of ["PATH", "HOME", "TOKENIZERS_PARALLELISM", "OD_DATA_DIR"]) expect(isCredentialVar(name)).toBe(false);
  });
});
