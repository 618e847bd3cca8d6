// Issue #39: the agent's version is said once beside its name, and reasoning offers one default.
import { expect, test } from "bun:test";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { shortVersion } from "../../web/lib/agent-version.ts";
import { createApi } from "../../web/api/client.ts";
import { createAppModel } from "../../web/state/app.ts";
import { manualScheduler } from "../../web/state/scheduler.ts";
import { fakeFetch, until } from "../support/web-fake-fetch.ts";

test("versions as CLIs print them, shown as the version alone", () => {
  expect(shortVersion("2.1.332 (Claude Code)")).toBe("2.1.332");
  expect(shortVersion("codex-cli 0.63.0")).toBe("0.63.0");
  expect(shortVersion("opencode v1.2.3\nmore")).toBe("1.2.3");
  expect(shortVersion("1.0.0-beta.2")).toBe("1.0.0-beta.2");
  expect(shortVersion("nightly")).toBe("nightly");
});

test("the reasoning picker lists the agent's default once, as 'Default reasoning', and sends no flag for it", async () => {
  const claude = {
    id: "claude", name: "Claude Code", bin: "claude", version: "2.1.332 (Claude Code)", available: true, state: "available", diagnostics: [], modelsSource: "fallback", streamFormat: "claude-stream-json", capabilities: {}, probeMs: {},
    models: [{ id: "sonnet", label: "Sonnet", reasoningOptions: [{ id: "default", label: "Default", default: true }, { id: "high", label: "high" }] }],
  } as unknown as AgentInfo;
  const { fetch } = fakeFetch({
    "GET /api/health": () => Response.json({ ok: true, version: "0.1.0" }),
    "GET /api/app-config": () => Response.json({ config: {} }),
    "GET /api/projects": () => Response.json({ projects: [] }),
    "GET /api/agents": () => Response.json({ agents: [claude] }),
  });
  const app = createAppModel({ api: createApi(fetch), stream: () => () => undefined, schedule: manualScheduler().schedule });
  await app.start({ projectId: null, conversationId: null });
  await until(() => app.agents.load.value === "done");
  expect(app.composer.selectedReasoning.value).toBe("");
  expect(app.composer.reasoningChoices.value.map((r) => [r.id, r.label])).toEqual([["", "Default reasoning"], ["high", "high"]]);
  app.dispose();
});
