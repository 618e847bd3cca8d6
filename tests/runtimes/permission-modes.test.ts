// Issue #37: detection reports which permission modes each agent can honour, from its transport.
import { expect, test } from "bun:test";
import { baseAgentInfo } from "../../server/runtimes/detection.ts";
import { permissionModesOf } from "../../server/runtimes/permission-modes.ts";
import { AGENT_DEFS, getAgentDef } from "../../server/runtimes/registry.ts";

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
  for (const d of AGENT_DEFS) expect(permissionModesOf(d, {})).toContain("bypass");
});

test("kilo's runs get its permission overlay: ask asks before edits, commands and fetches; read-only denies them; bypass adds none", () => {
  const kilo = def("kilo");
  expect(kilo.permissionEnv?.("bypass")).toEqual({});
  expect(JSON.parse(kilo.permissionEnv!("ask").KILO_PERMISSION!)).toEqual({ edit: "ask", bash: "ask", webfetch: "ask", external_directory: "ask" });
  expect(JSON.parse(kilo.permissionEnv!("read-only").KILO_PERMISSION!)).toEqual({ edit: "deny", bash: "deny", webfetch: "deny", external_directory: "deny" });
});
