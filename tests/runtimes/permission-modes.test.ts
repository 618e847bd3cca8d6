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
  // kilo writes without asking in its default mode: it cannot honour ask.
  expect(baseAgentInfo(def("kilo"), {}).permissionModes).toEqual(["bypass"]);
  expect(baseAgentInfo(def("deepseek"), {}).permissionModes).toEqual(["bypass"]);
  // codex over `exec --json` has no channel to ask on.
  expect(permissionModesOf(def("codex"), { OD_CODEX_TRANSPORT: "exec-json" })).toEqual(["bypass"]);
});

test("every agent can run in bypass", () => {
  for (const d of AGENT_DEFS) expect(permissionModesOf(d, {})).toContain("bypass");
});
