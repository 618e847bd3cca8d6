import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_FAILURE_CODES, classifyAgentFailure, classifyExitWithoutResult, type AgentFailureInput } from "../../server/runtimes/failures.ts";
import { baseAgentDefs } from "../../server/runtimes/registry.ts";

const failed = (agentId: string, text: string, extra: Partial<AgentFailureInput> = {}): AgentFailureInput => ({
  agentId,
  text,
  exitCode: 1,
  signal: null,
  sawOutput: true,
  ...extra,
});
const classify = (agentId: string, text: string, extra?: Partial<AgentFailureInput>) => classifyAgentFailure(failed(agentId, text, extra));
const fixture = (path: string) => readFileSync(join(import.meta.dir, "..", "fixtures", path), "utf8");

describe("auth", () => {
  test("claude's result text (real-clis §9)", () => {
    const failure = classify("claude", "Invalid API key · Fix external API key");
    expect(failure).toMatchObject({ category: "auth", code: "AGENT_AUTH_REQUIRED", fixCommand: "claude auth login" });
    expect(failure.guidance).toContain("claude auth login");
    expect(failure.guidance).toContain("setup-token");
    expect(failure.guidance).toContain("GUI");
  });

  test("claude's recorded 401 run", () => {
    expect(classify("claude", fixture("claude/error.jsonl")).category).toBe("auth");
  });

  test("codex: unexpected status 401 Unauthorized", () => {
    const text = "unexpected status 401 Unauthorized: od-fake: simulated HTTP 401, url: http://127.0.0.1:9/v1/responses";
    expect(classify("codex", text)).toMatchObject({ category: "auth", fixCommand: "codex login" });
    expect(classify("codex", fixture("codex/error.jsonl")).code).toBe("AGENT_AUTH_REQUIRED");
  });

  test("codex app-server httpStatusCode 401", () => {
    const text = '{"error":{"message":"x","codexErrorInfo":{"httpConnectionFailed":{"httpStatusCode":401}}},"willRetry":false}';
    expect(classify("codex", text).category).toBe("auth");
  });

  test("opencode APIError JSON with statusCode 401", () => {
    const failure = classify("opencode", fixture("opencode/error.jsonl"));
    expect(failure).toMatchObject({ category: "auth", fixCommand: "opencode auth login" });
    const bare = '{"type":"error","error":{"name":"APIError","data":{"message":"nope","statusCode":401,"isRetryable":false}}}';
    expect(classify("opencode", bare).category).toBe("auth");
  });

  test("copilot: Authentication failed with provider (HTTP 401)", () => {
    const failure = classify("copilot", "Authentication failed with provider at http://127.0.0.1:1 (HTTP 401)");
    expect(failure.category).toBe("auth");
    expect(failure.guidance).toContain("/login");
    expect(failure.fixCommand).toBeUndefined();
  });

  test("qwen 401 result", () => {
    const text = '{"type":"result","is_error":true,"error":{"message":"[API Error: 401 Incorrect API key provided.]"}}';
    const failure = classify("qwen", text);
    expect(failure.category).toBe("auth");
    expect(failure.guidance).toContain("/auth");
  });

  test("qoder / claude: Not logged in · Please run /login", () => {
    expect(classify("qoder", "Not logged in · Please run /login").category).toBe("auth");
    expect(classify("claude", "Please run /login").category).toBe("auth");
  });

  test("other signatures", () => {
    for (const text of ["Error: unauthorized", "Your session expired, sign in again", "token has expired", "please sign in", "status: 401"]) {
      expect(classify("codex", text).category).toBe("auth");
    }
  });

  test("auth wins over a later rate limit", () => {
    expect(classify("claude", "API Error: 401 unauthorized\nthen 429 Too Many Requests").category).toBe("auth");
  });

  test("tailored guidance per agent", () => {
    const auth = (agentId: string) => classify(agentId, "Invalid API key");
    expect(auth("cursor-agent")).toMatchObject({ fixCommand: "cursor-agent login" });
    expect(auth("cursor-agent").guidance).toContain("CURSOR_API_KEY");
    expect(auth("deepseek").guidance).toContain("~/.deepseek/config.toml");
    expect(auth("deepseek").guidance).toContain("DEEPSEEK_API_KEY");
    expect(auth("deepseek-harness").guidance).toContain("Models page");
    expect(auth("deepseek-harness").guidance).toContain("DEEPSEEK_API_KEY");
    expect(auth("antigravity")).toMatchObject({ fixCommand: "agy" });
    expect(auth("antigravity").guidance).toContain("once in a terminal");
    expect(auth("reasonix").guidance).toContain("~/.reasonix/config.json");
    expect(auth("pi").guidance).toContain("/login");
  });

  test("a def's loginCommand wins, and local profiles get their base agent's guidance", () => {
    const def = { id: "claude-work", name: "Claude (work)", loginCommand: "claude-work auth login" };
    expect(classify("claude-work", "Invalid API key", { def }).fixCommand).toBe("claude-work auth login");
    const profile = { id: "my-deepseek", name: "My DeepSeek", localProfile: { baseAgentId: "deepseek", sourceFile: "x.json" } };
    expect(classify("my-deepseek", "Invalid API key", { def: profile }).guidance).toContain("~/.deepseek/config.toml");
  });

  test("every shipped def gets auth guidance; a def's loginCommand becomes the fix command", () => {
    for (const def of baseAgentDefs()) {
      const failure = classify(def.id, "401 Unauthorized");
      expect(failure.category).toBe("auth");
      expect(failure.message).toContain(def.name);
      expect(failure.guidance?.length).toBeGreaterThan(10);
      if (def.loginCommand) expect(failure.fixCommand).toBe(def.loginCommand);
    }
  });
});

describe("quota", () => {
  test("codex 429 after retries", () => {
    const failure = classify("codex", "exceeded retry limit, last status: 429 Too Many Requests");
    expect(failure).toMatchObject({ category: "quota", code: "RATE_LIMITED", detail: "rate_limit", retryable: true });
  });

  test("codex app-server 429 info", () => {
    expect(classify("codex", '{"responseTooManyFailedAttempts":{"httpStatusCode":429}}').detail).toBe("rate_limit");
  });

  test("hard quota signatures", () => {
    for (const text of [
      "You exceeded your current quota, please check your plan and billing details.",
      "Insufficient Balance",
      "Your credit balance is too low to access the Anthropic API.",
      "Claude AI usage limit reached|1700000000",
      "billing_hard_limit_reached",
    ]) {
      expect(classify("codex", text)).toMatchObject({ category: "quota", detail: "hard_quota", retryable: false });
    }
  });

  test("RESOURCE_EXHAUSTED is a per-model quota", () => {
    const failure = classify("antigravity", '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}');
    expect(failure).toMatchObject({ category: "quota", detail: "model_quota" });
    expect(failure.guidance).toContain("another model");
  });

  test("rate limit wording", () => {
    expect(classify("pi", "Rate limited, retry later").category).toBe("quota");
    expect(classify("pi", '{"type":"error","error":{"type":"rate_limit_error"}}').category).toBe("quota");
  });
});

describe("upstream", () => {
  test("500 and friends", () => {
    for (const text of [
      "We’re currently experiencing high demand, which may cause temporary errors.",
      "Internal error: API Error: 529 {\"type\":\"overloaded_error\"}",
      "HTTP/1.1 503 Service Unavailable",
      "502 Bad Gateway",
      "gateway timeout",
      '{"codexErrorInfo":"internalServerError"}',
      "request failed with status code 500",
      '{"statusCode":500}',
    ]) {
      expect(classify("codex", text)).toMatchObject({ category: "upstream", code: "UPSTREAM_UNAVAILABLE", retryable: true });
    }
  });

  test("network failures", () => {
    expect(classify("codex", "connect ECONNREFUSED 127.0.0.1:1")).toMatchObject({ category: "upstream", detail: "network" });
  });
});

describe("config", () => {
  test("claude's Prompt is too long", () => {
    expect(classify("claude", "Prompt is too long")).toMatchObject({ category: "config", code: "AGENT_PROMPT_TOO_LARGE" });
  });

  test("unknown flags and models", () => {
    expect(classify("codex", "error: unexpected argument '--frob' found")).toMatchObject({ category: "config", detail: "invalid_invocation" });
    expect(classify("opencode", "ProviderModelNotFoundError: model fake/x not found")).toMatchObject({ detail: "model_unavailable" });
  });
});

describe("negatives", () => {
  test("bare numbers without an HTTP/status context do not count", () => {
    for (const text of ["exit code 401", "process exited with exit code: 401", "Compiled 500 files", "see line 429", "wrote 503 bytes"]) {
      expect(classify("codex", text).category).toBe("unknown");
    }
  });

  test("ordinary words near the signatures do not count", () => {
    for (const text of ["added rate limiting middleware", "the quota field is optional", "login page built at /app/login", "Internal error"]) {
      expect(classify("codex", text).category).toBe("unknown");
    }
  });

  test("an unmatched failure is AGENT_EXECUTION_FAILED with the last line as evidence", () => {
    const failure = classify("codex", "starting\nsomething odd happened\n", { exitCode: 2 });
    expect(failure).toMatchObject({ category: "unknown", code: "AGENT_EXECUTION_FAILED", evidence: "something odd happened" });
    expect(failure.message).toContain("exited with code 2");
  });
});

describe("outcomes that are not in the text", () => {
  test("cancel wins over everything", () => {
    expect(classify("claude", "Invalid API key", { canceled: true })).toMatchObject({ category: "cancel", code: "AGENT_CANCELED" });
  });

  test("a watchdog timeout", () => {
    expect(classify("qwen", "", { timedOut: "inactivity_timeout", exitCode: null, signal: "SIGTERM" })).toMatchObject({
      category: "timeout",
      code: "AGENT_TIMEOUT",
      detail: "inactivity_timeout",
    });
  });

  test("a 429 retry loop that timed out is still reported as the quota problem", () => {
    expect(classify("qwen", "429 Too Many Requests", { timedOut: "inactivity_timeout" }).category).toBe("quota");
  });

  test("killed by a signal, directly or through a wrapper's 128+N exit code", () => {
    expect(classify("codex", "", { exitCode: null, signal: "SIGKILL" })).toMatchObject({ category: "crash", detail: "killed_by_signal" });
    expect(classify("codex", "", { exitCode: 137 }).message).toContain("SIGKILL");
  });

  test("exit 0 without output is empty_output", () => {
    expect(classify("copilot", "", { exitCode: 0, sawOutput: false })).toMatchObject({ category: "unknown", detail: "empty_output" });
  });
});

describe("classifyExitWithoutResult", () => {
  const noResult = (extra: Partial<AgentFailureInput>) => classifyExitWithoutResult(failed("gemini", "", extra));

  test("exit 0 with no output → empty_output", () => {
    expect(noResult({ exitCode: 0, sawOutput: false })).toMatchObject({ code: "AGENT_EXECUTION_FAILED", detail: "empty_output" });
  });

  test("killed by a signal without a final record → crash", () => {
    expect(noResult({ exitCode: null, signal: "SIGTERM" })).toMatchObject({ category: "crash", detail: "killed_by_signal" });
    expect(noResult({ exitCode: 143 })).toMatchObject({ category: "crash", detail: "killed_by_signal" });
  });

  test("exit 0 after output but no final record (Gemini SIGTERM, Copilot abort) → crash", () => {
    expect(noResult({ exitCode: 0, sawOutput: true })).toMatchObject({ category: "crash", detail: "no_final_record" });
  });

  test("an auth signature in stderr still wins", () => {
    expect(classifyExitWithoutResult(failed("qwen", "401 Unauthorized", { exitCode: 0, sawOutput: false })).category).toBe("auth");
  });
});

test("every code the classifier returns is in AGENT_FAILURE_CODES", () => {
  const samples = [
    classify("claude", "Invalid API key"),
    classify("codex", "429"),
    classify("codex", "HTTP 503"),
    classify("claude", "Prompt is too long"),
    classify("claude", "", { canceled: true }),
    classify("claude", "", { timedOut: "timeout" }),
    classify("claude", "boom"),
  ];
  for (const sample of samples) expect(AGENT_FAILURE_CODES).toContain(sample.code);
});
