// Issue #37: detection reports which permission modes each agent can honour, from its transport.
import { expect, test } from "bun:test";
import { baseAgentInfo } from "../../server/runtimes/detection.ts";
import { permissionModesOf } from "../../server/runtimes/permission-modes.ts";
import { baseAgentDefs, getAgentDef } from "../../server/runtimes/registry.ts";

const def = (id: string) => getAgentDef(id)!;

test("agents with an approval channel report all three modes; the rest only bypass", () => {
  expect(baseAgentInfo(def("claude"), {}).permissionModes).toEqual(["bypass", "ask", "read-only"]);
  expect(baseAgentInfo(def("codex"), {}).permissionModes).toEqual(["bypass", "ask", "read-only"]);
  expect(baseAgentInfo(def("vibe"), {}).permissionModes).toEqual(["bypass", "ask", "read-only"]);
  // kilo writes without asking in its default mode; its permission overlay makes it ask (or refuse) over ACP.
  expect(baseAgentInfo(def("kilo"), {}).permissionModes).toEqual(["bypass", "ask", "read-only"]);
  expect(baseAgentInfo(def("deepseek"), {}).permissionModes).toEqual(["bypass"]);
  // codex over `exec --json` has no channel to ask on.
  expect(permissionModesOf(def("codex"), { OD_CODEX_TRANSPORT: "exec-json" })).toEqual(["bypass"]);
});

test("every agent can run in bypass", () => {
  for (const d of baseAgentDefs()) expect(permissionModesOf(d, {})).toContain("bypass");
});

test("kilo's runs get its permission overlay: ask asks before edits, commands and fetches; read-only denies them; bypass adds none", () => {
  const kilo = def("kilo");
  expect(kilo.permissionEnv?.("bypass")).toEqual({});
  expect(JSON.parse(kilo.permissionEnv!("ask").KILO_PERMISSION!)).toEqual({ edit: "ask", bash: "ask", webfetch: "ask", external_directory: "ask" });
  expect(JSON.parse(kilo.permissionEnv!("read-only").KILO_PERMISSION!)).toEqual({ edit: "deny", bash: "deny", webfetch: "deny", external_directory: "deny" });
});

test("qwen asks on Claude's control channel: in ask and read-only the prompt goes as stream-json after an SDK initialize; bypass keeps plain stdin and --yolo", async () => {
  const { buildInvocation, CONTROL_INITIALIZE_LINE } = await import("../../server/runtimes/invocation.ts");
  const qwen = def("qwen");
  expect(permissionModesOf(qwen, {})).toEqual(["bypass", "ask", "read-only"]);
  const invocation = (permissionMode: "bypass" | "ask" | "read-only") =>
    buildInvocation(qwen, { prompt: "hi", imagePaths: [], extraAllowedDirs: [], options: { permissionMode }, context: { cwd: "/p" }, env: {} });
  for (const mode of ["ask", "read-only"] as const) {
    const asking = invocation(mode);
    expect(asking.args).toEqual(expect.arrayContaining(["--input-format", "stream-json", "--approval-mode", "default"]));
    expect(asking.args).not.toContain("--yolo");
    expect(asking.delivery).toEqual({ kind: "stdin-stream-json", line: `${CONTROL_INITIALIZE_LINE}\n${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: "hi" }] } })}` });
  }
  const bypass = invocation("bypass");
  expect(bypass.args).toContain("--yolo");
  expect(bypass.delivery).toEqual({ kind: "stdin-text", text: "hi" });
});

test("pi asks through od's permission extension: loaded in ask and read-only runs, its dialog names the tool call, od answers allow or deny with the words", async () => {
  const { piApprovalReply, piApprovalRequest, piPermissionExtension, PI_APPROVAL_MARKER } = await import("../../server/runtimes/defs/pi-permissions.ts");
  const pi = def("pi");
  expect(permissionModesOf(pi, {})).toEqual(["bypass", "ask", "read-only"]);
  expect(pi.agentFile?.("bypass")).toBeUndefined();
  for (const mode of ["ask", "read-only"] as const) expect(pi.agentFile?.(mode)).toEqual(piPermissionExtension(mode));
  const extension = piPermissionExtension("ask")!;
  expect(extension.name).toBe("od-permissions.mjs");
  expect(extension.content).toContain('pi.on("tool_call"');
  expect(pi.buildArgs("p", [], [], { permissionMode: "ask" }, { cwd: "/p", agentFilePath: "/tmp/od-run/od-permissions.mjs" })).toEqual(
    expect.arrayContaining(["--extension", "/tmp/od-run/od-permissions.mjs"]),
  );

  expect(piApprovalRequest(`${PI_APPROVAL_MARKER}${JSON.stringify({ toolName: "write", input: { path: "a.txt" } })}`)).toEqual({ toolName: "write", input: { path: "a.txt" } });
  // Another extension's dialogs are not od's to answer as approvals.
  expect(piApprovalRequest("Enter a value")).toBeUndefined();
  expect(piApprovalRequest(`${PI_APPROVAL_MARKER}not json`)).toBeUndefined();
  expect(JSON.parse(piApprovalReply(true))).toEqual({ allow: true });
  expect(JSON.parse(piApprovalReply(false, "not that file"))).toEqual({ allow: false, message: "not that file" });
});

test("opencode cannot ask, but refuses changes by itself in a read-only run: bypass and read-only, its overlay denying every change", () => {
  const opencode = def("opencode");
  expect(permissionModesOf(opencode, {})).toEqual(["bypass", "read-only"]);
  expect(opencode.permissionEnv?.("bypass")).toEqual({});
  expect(JSON.parse(opencode.permissionEnv!("read-only").OPENCODE_PERMISSION!)).toEqual({ edit: "deny", bash: "deny", webfetch: "deny", external_directory: "deny" });
});

test("copilot asks over ACP: its ask and read-only runs start `copilot --acp` on the ACP transport; bypass keeps its JSON stream", async () => {
  const { buildInvocation } = await import("../../server/runtimes/invocation.ts");
  const { acpApprovalQuestion } = await import("../../server/runtimes/protocols/acp/ask-permission.ts");
  const copilot = def("copilot");
  expect(permissionModesOf(copilot, {})).toEqual(["bypass", "ask", "read-only"]);
  const invocation = (permissionMode: "bypass" | "ask" | "read-only") =>
    buildInvocation(copilot, { prompt: "hi", imagePaths: [], extraAllowedDirs: [], options: { permissionMode }, context: { cwd: "/p" }, env: {} });
  for (const mode of ["ask", "read-only"] as const) {
    expect(invocation(mode)).toMatchObject({ args: ["--acp"], reader: { kind: "protocol", format: "acp-json-rpc" }, delivery: { kind: "protocol" } });
  }
  expect(invocation("bypass")).toMatchObject({ reader: { kind: "lines", streamFormat: "copilot-stream-json" } });
  expect(invocation("bypass").args).toContain("--allow-all-tools");
  // Its write request is titled "Create file" and names the file in `fileName`: the question names both.
  const question = acpApprovalQuestion({ toolCall: { toolCallId: "t1", title: "Create file", kind: "edit", rawInput: { fileName: "/p/site/a.txt" } }, options: [] }, "/p");
  expect(question).toMatchObject({ kind: "edit", title: "Create file: site/a.txt" });
});
