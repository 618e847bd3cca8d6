/** The conditional argv rules of individual defs that the registry snapshot cannot show on its own. */
import { describe, expect, test } from "bun:test";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef, RuntimeContext } from "../../server/runtimes/types.ts";
import { codexTransport } from "../../server/runtimes/defs/codex.ts";

function def(id: string): RuntimeAgentDef {
  const found = getAgentDef(id);
  if (!found) throw new Error(`no def ${id}`);
  return found;
}
const ctx = (extra: RuntimeContext = {}): RuntimeContext => ({ cwd: "/proj", platform: "linux", env: {}, ...extra });

describe("codex", () => {
  const codex = def("codex");
  const exec = (extra: RuntimeContext = {}) => ctx({ ...extra, env: { OD_CODEX_TRANSPORT: "exec-json", ...extra.env } });

  test("app-server is the default transport; exec-json is opt-in", () => {
    expect(codex.buildArgs("p", [], ["/d"], { model: "gpt-5.5" }, ctx())).toEqual(["app-server"]);
    expect(codexTransport({})).toEqual({ streamFormat: "codex-app-server" });
    expect(codexTransport({ OD_CODEX_TRANSPORT: "exec-json" })).toEqual({ streamFormat: "json-event-stream", eventParser: "codex" });
  });

  test("danger-full-access on Windows, WSL or by override", () => {
    const expected = ["exec", "--json", "--skip-git-repo-check", "--sandbox", "danger-full-access", "-C", "/proj"];
    expect(codex.buildArgs("p", [], [], {}, exec({ platform: "win32" }))).toEqual(expected);
    expect(codex.buildArgs("p", [], [], {}, exec({ env: { WSL_DISTRO_NAME: "Ubuntu" } }))).toEqual(expected);
    expect(codex.buildArgs("p", [], [], {}, exec({ env: { OD_CODEX_SANDBOX: "danger-full-access" } }))).toEqual(expected);
  });

  test("resume carries the sandbox only as -c and drops create-only flags", () => {
    const args = codex.buildArgs("p", [], ["/extra"], { model: "gpt-5.5", serviceTier: "fast" }, exec({ resumeSessionId: "t-1", env: { WSL_DISTRO_NAME: "x" } }));
    expect(args).toEqual([
      "exec", "resume", "--json", "--skip-git-repo-check", "-c", 'sandbox_mode="danger-full-access"',
      "--model", "gpt-5.5", "-c", 'service_tier="fast"', "t-1",
    ]);
  });

  test("--disable plugins from context or env", () => {
    expect(codex.buildArgs("p", [], [], {}, exec({ disablePlugins: true }))).toContain("--disable");
    expect(codex.buildArgs("p", [], [], {}, exec({ env: { OD_CODEX_DISABLE_PLUGINS: "1" } }))).toContain("plugins");
  });

  test("reasoning the model does not support is rejected before spawn", () => {
    expect(() => codex.buildArgs("p", [], [], { model: "gpt-5.1-codex-mini", reasoning: "low" }, exec())).toThrow(/does not support/);
    expect(() => codex.buildArgs("p", [], [], { model: "gpt-5.1", reasoning: "xhigh" }, exec())).toThrow(/does not support/);
    expect(() => codex.buildArgs("p", [], [], { model: "gpt-5.6-codex", reasoning: "ultra" }, exec())).not.toThrow();
    expect(() => codex.buildArgs("p", [], [], { model: "unknown-model", reasoning: "whatever" }, exec())).not.toThrow();
  });
});

describe("opencode", () => {
  const opencode = def("opencode");
  const live = [{ id: "p/m", label: "m", reasoningOptions: [{ id: "high", label: "high" }] }];

  test("--dangerously-skip-permissions only when advertised, else --auto, else nothing", () => {
    expect(opencode.buildArgs("p", [], [], {}, ctx({ capabilities: { skipPermissions: true, autoApprove: true } }))).toEqual([
      "run", "--format", "json", "--dangerously-skip-permissions", "--dir", "/proj",
    ]);
    expect(opencode.buildArgs("p", [], [], {}, ctx({ capabilities: { autoApprove: true } }))).toEqual(["run", "--format", "json", "--auto", "--dir", "/proj"]);
    expect(opencode.buildArgs("p", [], [], { permissionMode: "restricted" }, ctx({ capabilities: { skipPermissions: true } }))).toEqual([
      "run", "--format", "json", "--dir", "/proj",
    ]);
  });

  test("--dir is dropped when the help probe says the build lacks it", () => {
    expect(opencode.buildArgs("p", [], [], {}, ctx({ capabilities: { workspaceDir: false } }))).toEqual(["run", "--format", "json"]);
  });

  test("variants: --variant (1.x) or model#variant (2.x), only when the live list advertises it", () => {
    const options = { model: "p/m", reasoning: "high" };
    expect(opencode.buildArgs("p", [], [], options, ctx({ liveModels: live, capabilities: { variantFlag: true, workspaceDir: false } }))).toEqual([
      "run", "--format", "json", "-m", "p/m", "--variant", "high",
    ]);
    expect(opencode.buildArgs("p", [], [], options, ctx({ liveModels: live, capabilities: { autoApprove: true, workspaceDir: false } }))).toEqual([
      "run", "--format", "json", "--auto", "-m", "p/m#high",
    ]);
    expect(opencode.buildArgs("p", [], [], { model: "p/m", reasoning: "max" }, ctx({ liveModels: live, capabilities: { variantFlag: true, workspaceDir: false } }))).toEqual([
      "run", "--format", "json", "-m", "p/m",
    ]);
  });
});

describe("copilot", () => {
  test("never -p, and a 200k prompt never reaches argv", () => {
    const big = "x".repeat(200_000);
    const args = def("copilot").buildArgs(big, [], ["/a"], { model: "gpt-5.2" }, ctx());
    expect(args).not.toContain("-p");
    expect(args.some((arg) => arg.includes(big.slice(0, 100)))).toBe(false);
  });
});

describe("qoder", () => {
  test("forwards only absolute dirs and images, judged by the target platform", () => {
    const args = def("qoder").buildArgs("p", ["C:\\img\\a.png", "b.png"], ["D:\\skills", "rel"], {}, ctx({ platform: "win32", cwd: "C:\\proj" }));
    expect(args).toEqual(["-p", "--output-format", "stream-json", "--yolo", "-w", "C:\\proj", "--add-dir", "D:\\skills", "--attachment", "C:\\img\\a.png"]);
  });
});

describe("claude", () => {
  const claude = def("claude");
  test("capability-gated flags", () => {
    const args = claude.buildArgs("p", [], ["/d"], { reasoning: "max" }, ctx({
      capabilities: { partialMessages: true, thinkingDisplay: true, forwardSubagentText: true, effort: false, addDir: false },
      observeNativeChildBehavior: true,
    }));
    expect(args).toEqual([
      "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
      "--include-partial-messages", "--thinking-display", "summarized", "--forward-subagent-text",
      "--permission-mode", "bypassPermissions",
    ]);
  });
  test("restricted mode omits the permission bypass", () => {
    expect(claude.buildArgs("p", [], [], { permissionMode: "restricted" }, ctx())).not.toContain("bypassPermissions");
  });
  test("ask and read-only: the CLI's default mode with its questions on stdio, never the bypass (issue #37)", () => {
    for (const permissionMode of ["ask", "read-only"] as const) {
      expect(claude.buildArgs("p", [], [], { permissionMode }, ctx())).toEqual([
        "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--permission-prompt-tool", "stdio",
      ]);
    }
    expect(claude.buildArgs("p", [], [], { permissionMode: "bypass" }, ctx())).toContain("bypassPermissions");
  });
});

describe("cursor-agent", () => {
  test("--trust only after the help probe found it", () => {
    expect(def("cursor-agent").buildArgs("p", [], [], {}, ctx({ capabilities: { trust: true } }))).toEqual([
      "--print", "--output-format", "stream-json", "--stream-partial-output", "--force", "--trust", "--workspace", "/proj",
    ]);
  });
});

describe("pi and prime-agent", () => {
  test("pi: skills as --skill, other absolute dirs as --append-system-prompt", () => {
    const args = def("pi").buildArgs("p", [], ["/skills/a", "/ds", "rel"], {}, ctx({ skillDirs: ["/skills/a"] }));
    expect(args).toEqual(["--mode", "rpc", "--session-dir", "/proj/.pi/sessions", "--skill", "/skills/a", "--append-system-prompt", "/ds"]);
  });
  test("prime-agent splits provider/model", () => {
    expect(def("prime-agent").buildArgs("p", [], [], { model: "openai/gpt-5" }, ctx())).toEqual([
      "--mode", "rpc", "--cwd", "/proj", "--provider", "openai", "--model", "gpt-5",
    ]);
  });
});

describe("prompt-file and argv-prompt defs", () => {
  test("file-prompt defs refuse to build without a prompt file", () => {
    expect(() => def("atomcode").buildArgs("p", [], [], {}, ctx())).toThrow(/promptFilePath/);
    expect(() => def("grok-build").buildArgs("p", [], [], {}, ctx())).toThrow(/promptFilePath/);
  });
  test("argv-prompt defs declare the 30 000-byte budget", () => {
    for (const id of ["deepseek", "aider", "antigravity"]) expect(def(id).maxPromptArgBytes).toBe(30_000);
  });
  test("antigravity continues with -c after a prior assistant turn", () => {
    expect(def("antigravity").buildArgs("p", [], [], {}, ctx({ hasPriorAssistantTurn: true, cwd: undefined }))).toEqual(["--print", "-c", "p"]);
  });
});

describe("permission modes (issue #37)", () => {
  test("no def passes a bypass flag in ask or read-only mode: their argv adds nothing to the restricted one but the CLI's own ask channel", async () => {
    const { baseAgentDefs } = await import("../../server/runtimes/registry.ts");
    const context = ctx({ promptFilePath: "/tmp/prompt.md" });
    for (const d of baseAgentDefs()) {
      const restricted = d.buildArgs("p", [], [], { permissionMode: "restricted" }, context);
      for (const permissionMode of ["ask", "read-only"] as const) {
        // What the mode's argv has beyond the restricted one, each restricted word taken away once.
        const left = [...restricted];
        const added = d.buildArgs("p", [], [], { permissionMode }, context).filter((arg) => {
          const at = left.indexOf(arg);
          if (at >= 0) left.splice(at, 1);
          return at < 0;
        });
        expect({ id: d.id, added: added.sort() }).toEqual({ id: d.id, added: [...(d.approvalChannelArgs ?? [])].sort() });
      }
    }
  });
});
