// Issue #36 item 6 and 3: settings given per machine (app-config `machineEnv`, by machine key) reach every agent run
// there and od's own reading of its settings for that run (codex's sandbox), and an agent's own env wins over them.
// Parameterised over machines in tests/remote; here on this machine, whose key is `local`.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { endOf, runHarness } from "../support/fake-agents.ts";

const codex = getAgentDef("codex") as RuntimeAgentDef;
const fixture = (cli: string, scenario: string) => join(import.meta.dir, "..", "fixtures", cli, `${scenario}.jsonl`);

test("a machine's env reaches its runs and codex's sandbox choice; the agent's own env wins", async () => {
  await using h = await runHarness({
    defs: [codex],
    shims: { codex: undefined },
    steps: [{ readAll: true }, { outFile: fixture("codex", "write") }],
    env: { OD_CODEX_TRANSPORT: "exec-json" },
  });
  const plain = await h.run({ agentId: "codex", message: "write it" });
  expect(endOf(plain.events).status).toBe("succeeded");
  expect((h.ledger()[0]!.argv as string[]).join(" ")).toContain("workspace-write");

  h.store.appConfig.update({
    machineEnv: { local: { OD_CODEX_SANDBOX: "danger-full-access", FAKE_ENV_MACHINE: "machine", FAKE_ENV_BOTH: "machine" } },
    agentCliEnv: { codex: { FAKE_ENV_BOTH: "agent" } },
  });
  const configured = await h.run({ agentId: "codex", message: "write it again" });
  expect(endOf(configured.events).status).toBe("succeeded");
  const second = h.ledger().at(-1)!;
  expect((second.argv as string[]).join(" ")).toContain("danger-full-access");
  expect(second.env).toMatchObject({ FAKE_ENV_MACHINE: "machine", FAKE_ENV_BOTH: "agent" });
});
