import { describe, expect, test } from "bun:test";
import { isCredentialVar, RUN_COOKIE_VAR, spawnEnvForAgent } from "../../server/runtimes/env.ts";
import { getAgentDef, baseAgentDefs } from "../../server/runtimes/registry.ts";

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
    for (const def of baseAgentDefs()) {
      for (const name of def.inheritedEnv ?? []) expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
    }
  });

  test("credential-looking names", () => {
    for (const name of ["OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "MY_SECRET", "GITLAB_PAT"]) expect(isCredentialVar(name)).toBe(true);
    for (const name of ["PATH", "HOME", "TOKENIZERS_PARALLELISM", "OD_DATA_DIR"]) expect(isCredentialVar(name)).toBe(false);
  });

  test("credential-looking names in any case and spelling, and URLs that carry a user or password", () => {
    const names = ["OPENAI_KEY", "AZURE_OPENAI_KEY", "API_KEY", "openai_api_key", "OPENAI_APIKEY", "DB_PASSWORD", "PASSWORD", "TOKEN", "SLACK_WEBHOOK_URL", "MYSQL_PASSWD", "GOOGLE_CREDENTIALS", "github_pat", "Stripe-Secret"];
    for (const name of names) expect([name, isCredentialVar(name)]).toEqual([name, true]);
    for (const name of ["PWD", "OLDPWD", "KEYTIMEOUT", "PATHEXT", "TERM", "LANG", "SSH_AUTH_SOCK", "XDG_SESSION_TYPE"]) expect([name, isCredentialVar(name)]).toEqual([name, false]);
    expect(isCredentialVar("DATABASE_URL", "postgres://app:hunter2@db.internal:5432/app")).toBe(true);
    expect(isCredentialVar("GIT_REMOTE", "https://ghp_abc@github.example/x.git")).toBe(true);
    expect(isCredentialVar("DATABASE_URL", "postgres://db.internal:5432/app")).toBe(false);
    expect(isCredentialVar("HOMEPAGE", "https://example.org/a@b")).toBe(false);
  });

  test("database, cache, registry and container passwords, passphrases and JWTs are credentials too", () => {
    const names = ["PGPASSWORD", "MYSQL_PWD", "SMTP_PASS", "DB_PASS", "npm_config__auth", "REDISCLI_AUTH", "SUPABASE_JWT", "GPG_PASSPHRASE", "SSH_KEY_PASSPHRASE", "DOCKER_AUTH_CONFIG"];
    for (const name of names) expect([name, isCredentialVar(name)]).toEqual([name, true]);
    // The shell's own, a socket path, and words that merely contain the letters.
    for (const name of ["PWD", "OLDPWD", "SSH_AUTH_SOCK", "PASS", "AUTH", "BYPASS_PROXY", "COMPASS_HOME", "AUTHOR_NAME", "GIT_AUTHOR_EMAIL"]) expect([name, isCredentialVar(name)]).toEqual([name, false]);
    const env = spawnEnvForAgent(getAgentDef("claude")!, { PATH: "/usr/bin", PGPASSWORD: "pg", MYSQL_PWD: "my", npm_config__auth: "npm", DOCKER_AUTH_CONFIG: "{}" }, { PGPASSWORD: "on purpose" }, "r");
    expect(env).toMatchObject({ PATH: "/usr/bin", PGPASSWORD: "on purpose" });
    expect([env.MYSQL_PWD, env.npm_config__auth, env.DOCKER_AUTH_CONFIG]).toEqual([undefined, undefined, undefined]);
  });

  test("every such variable stays out of an agent's environment unless its def reads it", () => {
    const daemonEnv = { PATH: "/bin", OPENAI_KEY: "k", DB_PASSWORD: "p", openai_api_key: "k", DATABASE_URL: "postgres://u:p@h/db", SLACK_WEBHOOK_URL: "https://hooks.example/T/B/x", ANTHROPIC_API_KEY: "a" };
    const env = spawnEnvForAgent({ inheritedEnv: ["ANTHROPIC_API_KEY"] }, daemonEnv, undefined, "run-1");
    expect(Object.keys(env).sort()).toEqual(["ANTHROPIC_API_KEY", "OD_RUN_ID", "PATH"]);
  });
});
