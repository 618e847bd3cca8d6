/**
 * Registry-driven argv snapshots: every def in baseAgentDefs() must have an entry in EXPECTED, with one whole-array
 * expectation per case that applies to it (reasoning when it has reasoning options, images when it forwards
 * images, resume when it resumes natively, new-session when it mints specify-style ids). A def added to the
 * registry without an entry fails here.
 */
import { describe, expect, test } from "bun:test";
import { baseAgentDefs } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef, RuntimeContext } from "../../server/runtimes/types.ts";

type Case = "defaults" | "model" | "reasoning" | "extraDirs" | "images" | "resume" | "newSession" | "mcpConfig";
type Expectations = Partial<Record<Case, string[]>>;

const BASE_CONTEXT: RuntimeContext = {
  cwd: "/proj",
  promptFilePath: "/tmp/od/prompt.md",
  platform: "linux",
  // Codex's exec-json transport carries its policy in argv; the app-server default is covered in codex-args.test.ts.
  env: { OD_CODEX_TRANSPORT: "exec-json" },
  capabilities: {},
};

/** The model each def is asked for: its first non-default fallback, else a custom id. */
function modelFor(def: RuntimeAgentDef): string {
  return def.fallbackModels.find((model) => model.id !== "default")?.id ?? "custom-model";
}

/** Which cases apply to a def, and how to build each. */
function cases(def: RuntimeAgentDef): Array<[Case, () => string[]]> {
  const model = modelFor(def);
  const list: Array<[Case, () => string[]]> = [
    ["defaults", () => def.buildArgs("PROMPT", [], [], {}, BASE_CONTEXT)],
    ["model", () => def.buildArgs("PROMPT", [], [], { model }, BASE_CONTEXT)],
    ["extraDirs", () => def.buildArgs("PROMPT", [], ["/abs/skills", "rel/dir"], {}, BASE_CONTEXT)],
  ];
  if (def.reasoningOptions) list.push(["reasoning", () => def.buildArgs("PROMPT", [], [], { model, reasoning: "high" }, BASE_CONTEXT)]);
  if (def.externalMcpInjection === "claude-mcp-json") {
    list.push(["mcpConfig", () => def.buildArgs("PROMPT", [], [], {}, { ...BASE_CONTEXT, mcpConfigPath: "/tmp/od/od-mcp-run1.json" })]);
  }
  if (def.supportsImagePaths) list.push(["images", () => def.buildArgs("PROMPT", ["/abs/shot.png", "rel.png"], [], {}, BASE_CONTEXT)]);
  if (def.resumesSessionViaCli) {
    list.push(["resume", () => def.buildArgs("PROMPT", [], [], {}, { ...BASE_CONTEXT, resumeSessionId: "sess-1" })]);
    if (!def.capturesSessionIdFromStream) {
      list.push(["newSession", () => def.buildArgs("PROMPT", [], [], {}, { ...BASE_CONTEXT, newSessionId: "new-uuid" })]);
    }
  }
  return list;
}

const EXPECTED: Record<string, Expectations> = {
  "amr": {  // model: custom-model
    defaults: ["agent", "run", "--runtime", "opencode"],
    model: ["agent", "run", "--runtime", "opencode"],
    extraDirs: ["agent", "run", "--runtime", "opencode"],
    images: ["agent", "run", "--runtime", "opencode"],
  },
  "claude": {  // model: sonnet
    defaults: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"],
    model: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--model", "sonnet", "--permission-mode", "bypassPermissions"],
    reasoning: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--model", "sonnet", "--effort", "high", "--permission-mode", "bypassPermissions"],
    extraDirs: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--add-dir", "/abs/skills", "rel/dir", "--permission-mode", "bypassPermissions"],
    resume: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--resume", "sess-1", "--permission-mode", "bypassPermissions"],
    newSession: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--session-id", "new-uuid", "--permission-mode", "bypassPermissions"],
    mcpConfig: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--mcp-config", "/tmp/od/od-mcp-run1.json", "--permission-mode", "bypassPermissions"],
  },
  "codex": {  // model: gpt-5.5
    defaults: ["exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write", "-c", "sandbox_workspace_write.network_access=true", "-C", "/proj"],
    model: ["exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write", "-c", "sandbox_workspace_write.network_access=true", "-C", "/proj", "--model", "gpt-5.5"],
    reasoning: ["exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write", "-c", "sandbox_workspace_write.network_access=true", "-C", "/proj", "--model", "gpt-5.5", "-c", "model_reasoning_effort=\"high\""],
    extraDirs: ["exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write", "-c", "sandbox_workspace_write.network_access=true", "-C", "/proj", "--add-dir", "/abs/skills", "--add-dir", "rel/dir"],
    images: ["exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write", "-c", "sandbox_workspace_write.network_access=true", "-C", "/proj", "--image=/abs/shot.png", "--image=rel.png"],
    resume: ["exec", "resume", "--json", "--skip-git-repo-check", "-c", "sandbox_mode=\"workspace-write\"", "-c", "sandbox_workspace_write.network_access=true", "sess-1"],
  },
  "devin": {  // model: adaptive
    defaults: ["--permission-mode", "dangerous", "--respect-workspace-trust", "false", "acp"],
    model: ["--permission-mode", "dangerous", "--respect-workspace-trust", "false", "acp"],
    extraDirs: ["--permission-mode", "dangerous", "--respect-workspace-trust", "false", "acp"],
  },
  "opencode": {  // model: anthropic/claude-sonnet-4-5
    defaults: ["run", "--format", "json", "--dir", "/proj"],
    model: ["run", "--format", "json", "--dir", "/proj", "-m", "anthropic/claude-sonnet-4-5"],
    extraDirs: ["run", "--format", "json", "--dir", "/proj"],
    resume: ["run", "--format", "json", "--dir", "/proj", "-s", "sess-1"],
  },
  "byok-opencode": {  // model: custom-model
    defaults: ["run", "--format", "json"],
    model: ["run", "--format", "json", "-m", "custom-model"],
    extraDirs: ["run", "--format", "json"],
    resume: ["run", "--format", "json", "-s", "sess-1"],
  },
  "hermes": {  // model: grok-4.1-fast
    defaults: ["acp", "--accept-hooks"],
    model: ["acp", "--accept-hooks"],
    extraDirs: ["acp", "--accept-hooks"],
  },
  "trae-cli": {  // model: custom-model
    defaults: ["acp", "serve", "--yolo"],
    model: ["acp", "serve", "--yolo"],
    extraDirs: ["acp", "serve", "--yolo"],
  },
  "grok-build": {  // model: grok-code-fast-1
    defaults: ["--prompt-file", "/tmp/od/prompt.md", "--no-plan", "--always-approve"],
    model: ["--prompt-file", "/tmp/od/prompt.md", "--no-plan", "--always-approve", "--model", "grok-code-fast-1"],
    reasoning: ["--prompt-file", "/tmp/od/prompt.md", "--no-plan", "--always-approve", "--model", "grok-code-fast-1", "--effort", "high"],
    extraDirs: ["--prompt-file", "/tmp/od/prompt.md", "--no-plan", "--always-approve"],
    resume: ["--prompt-file", "/tmp/od/prompt.md", "--no-plan", "--always-approve", "--resume", "sess-1"],
    newSession: ["--prompt-file", "/tmp/od/prompt.md", "--no-plan", "--always-approve", "--session-id", "new-uuid"],
  },
  "kimi": {  // model: kimi-k2-turbo-preview
    defaults: ["acp"],
    model: ["acp"],
    extraDirs: ["acp"],
  },
  "cursor-agent": {  // model: auto
    defaults: ["--print", "--output-format", "stream-json", "--stream-partial-output", "--force", "--workspace", "/proj"],
    model: ["--print", "--output-format", "stream-json", "--stream-partial-output", "--force", "--workspace", "/proj", "--model", "auto"],
    extraDirs: ["--print", "--output-format", "stream-json", "--stream-partial-output", "--force", "--workspace", "/proj"],
    resume: ["--print", "--output-format", "stream-json", "--stream-partial-output", "--force", "--workspace", "/proj", "--resume", "sess-1"],
  },
  "qwen": {  // model: qwen3-coder-plus
    defaults: ["--yolo", "-o", "stream-json"],
    model: ["--yolo", "-o", "stream-json", "--model", "qwen3-coder-plus"],
    extraDirs: ["--yolo", "-o", "stream-json"],
    resume: ["--yolo", "-o", "stream-json", "-r", "sess-1"],
  },
  "qoder": {  // model: lite
    defaults: ["-p", "--output-format", "stream-json", "--yolo", "-w", "/proj"],
    model: ["-p", "--output-format", "stream-json", "--yolo", "-w", "/proj", "--model", "lite"],
    extraDirs: ["-p", "--output-format", "stream-json", "--yolo", "-w", "/proj", "--add-dir", "/abs/skills"],
    images: ["-p", "--output-format", "stream-json", "--yolo", "-w", "/proj", "--attachment", "/abs/shot.png"],
  },
  "copilot": {  // model: claude-sonnet-4.6
    defaults: ["--allow-all-tools", "--output-format", "json"],
    model: ["--allow-all-tools", "--output-format", "json", "--model", "claude-sonnet-4.6"],
    extraDirs: ["--allow-all-tools", "--output-format", "json", "--add-dir", "/abs/skills", "--add-dir", "rel/dir"],
    resume: ["--allow-all-tools", "--output-format", "json", "--session-id", "sess-1"],
    newSession: ["--allow-all-tools", "--output-format", "json", "--session-id", "new-uuid"],
  },
  "amp": {  // model: smart
    defaults: ["-x", "--stream-json", "--dangerously-allow-all"],
    model: ["-x", "--stream-json", "--dangerously-allow-all", "--mode", "smart"],
    extraDirs: ["-x", "--stream-json", "--dangerously-allow-all"],
  },
  "pi": {  // model: anthropic/claude-sonnet-4-5
    defaults: ["--mode", "rpc", "--session-dir", "/proj/.pi/sessions"],
    model: ["--mode", "rpc", "--session-dir", "/proj/.pi/sessions", "--model", "anthropic/claude-sonnet-4-5"],
    reasoning: ["--mode", "rpc", "--session-dir", "/proj/.pi/sessions", "--model", "anthropic/claude-sonnet-4-5", "--thinking", "high"],
    extraDirs: ["--mode", "rpc", "--session-dir", "/proj/.pi/sessions", "--append-system-prompt", "/abs/skills"],
    images: ["--mode", "rpc", "--session-dir", "/proj/.pi/sessions"],
  },
  "kiro": {  // model: auto
    defaults: ["acp"],
    model: ["acp"],
    extraDirs: ["acp"],
  },
  "kilo": {  // model: custom-model
    defaults: ["acp"],
    model: ["acp"],
    extraDirs: ["acp"],
    images: ["acp"],
  },
  "vibe": {  // model: devstral-medium-latest
    defaults: [],
    model: [],
    extraDirs: [],
  },
  "deepseek": {  // model: deepseek-flash
    defaults: ["exec", "--auto", "PROMPT"],
    model: ["exec", "--auto", "--model", "deepseek-flash", "PROMPT"],
    extraDirs: ["exec", "--auto", "PROMPT"],
  },
  "deepseek-harness": {  // model: custom-model
    defaults: ["--profile", "open-design", "--stdio"],
    model: ["--profile", "open-design", "--stdio"],
    extraDirs: ["--profile", "open-design", "--stdio"],
  },
  "aider": {  // model: sonnet
    defaults: ["--yes-always", "--no-pretty", "--no-git", "--no-auto-commits", "--no-suggest-shell-commands", "--no-show-model-warnings", "--message", "PROMPT"],
    model: ["--yes-always", "--no-pretty", "--no-git", "--no-auto-commits", "--no-suggest-shell-commands", "--no-show-model-warnings", "--model", "sonnet", "--message", "PROMPT"],
    extraDirs: ["--yes-always", "--no-pretty", "--no-git", "--no-auto-commits", "--no-suggest-shell-commands", "--no-show-model-warnings", "--message", "PROMPT"],
  },
  "antigravity": {  // model: gemini-3-pro
    defaults: ["--print", "--add-dir", "/proj", "PROMPT"],
    model: ["--print", "--add-dir", "/proj", "--model", "gemini-3-pro", "PROMPT"],
    extraDirs: ["--print", "--add-dir", "/proj", "--add-dir", "/abs/skills", "--add-dir", "rel/dir", "PROMPT"],
  },
  "reasonix": {  // model: deepseek-v4-pro
    defaults: ["acp"],
    model: ["acp"],
    extraDirs: ["acp"],
  },
  "prime-agent": {  // model: custom-model
    defaults: ["--mode", "rpc", "--cwd", "/proj"],
    model: ["--mode", "rpc", "--cwd", "/proj", "--model", "custom-model"],
    reasoning: ["--mode", "rpc", "--cwd", "/proj", "--model", "custom-model", "--thinking", "high"],
    extraDirs: ["--mode", "rpc", "--cwd", "/proj"],
    resume: ["--mode", "rpc", "--cwd", "/proj", "--resume", "sess-1"],
  },
  "codebuddy": {  // model: custom-model
    defaults: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions", "-y"],
    model: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--model", "custom-model", "--permission-mode", "bypassPermissions", "-y"],
    extraDirs: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--add-dir", "/abs/skills", "rel/dir", "--permission-mode", "bypassPermissions", "-y"],
    mcpConfig: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--mcp-config", "/tmp/od/od-mcp-run1.json", "--permission-mode", "bypassPermissions", "-y"],
  },
  "mimo": {  // model: xiaomi/mimo-v2-pro
    defaults: ["acp"],
    model: ["acp"],
    extraDirs: ["acp"],
  },
  "atomcode": {  // model: claude-sonnet-4-5
    defaults: ["--prompt-file", "/tmp/od/prompt.md", "-y"],
    model: ["--prompt-file", "/tmp/od/prompt.md", "-y", "--model", "claude-sonnet-4-5"],
    extraDirs: ["--prompt-file", "/tmp/od/prompt.md", "-y"],
  },
};

describe("argv of every registered def", () => {
  for (const def of baseAgentDefs()) {
    describe(def.id, () => {
      test("has an expectation entry", () => {
        expect(Object.keys(EXPECTED)).toContain(def.id);
      });
      for (const [name, build] of cases(def)) {
        test(name, () => {
          const expected = EXPECTED[def.id]?.[name];
          if (!expected) throw new Error(`EXPECTED["${def.id}"].${name} is missing: add the argv this def must build`);
          expect(build()).toEqual(expected);
        });
      }
      test("the model 'default' and null add no model flag", () => {
        const plain = def.buildArgs("PROMPT", [], [], {}, BASE_CONTEXT);
        expect(def.buildArgs("PROMPT", [], [], { model: "default" }, BASE_CONTEXT)).toEqual(plain);
        expect(def.buildArgs("PROMPT", [], [], { model: null }, BASE_CONTEXT)).toEqual(plain);
      });
      test("lists the default model option first", () => {
        expect(def.fallbackModels[0]).toEqual({ id: "default", label: "Default (CLI config)" });
      });
    });
  }

  test("no stale expectation entries", () => {
    const ids = new Set(baseAgentDefs().map((def) => def.id));
    expect(Object.keys(EXPECTED).filter((id) => !ids.has(id))).toEqual([]);
  });
});
