// Issue #34: on a busy machine a CLI's probes outlast the detection deadline, and the catalog shows it as still
// probing. A run asked for that agent waits for its probes (bounded by its own probe budget), then starts, or is
// refused with what the probes found; never with "still being probed".
import { afterAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { RunService } from "../../server/runs/run-service.ts";
import { Store } from "../../server/store/store.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { fakePath, testDef, writeFakeCli } from "../support/agents-fake-cli.ts";
import { endOf } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const tmp = tempDir("od-probing-run-");
afterAll(() => tmp[Symbol.dispose]());
const bin = join(tmp.path, "bin");
// Both answer their version probe only after 1.5 s (a loaded machine), long past the 200 ms deadline below.
writeFakeCli(
  bin,
  "od-fake-slow",
  `case "$1" in
  --version) sleep 1.5; echo "slow 1.0";;
  *) echo "slow agent answered";;
esac`,
);
// A shim whose install was removed: the OS cannot run what it points at.
writeFakeCli(bin, "od-fake-broken", `sleep 1.5; echo "exec: /opt/broken/cli: not found" >&2; exit 126`);
const slow = testDef("slow");
const broken = testDef("broken");
const env = { PATH: fakePath(bin), HOME: tmp.path };

function serviceWith(dataDir: string) {
  const catalog = new AgentCatalog({ defs: [slow, broken], deadlineMs: 200, deps: () => ({ env, homeDir: tmp.path }) });
  mkdirSync(dataDir, { recursive: true });
  const store = Store.open(join(dataDir, "od.db"), openBunSqlite);
  const project = store.projects.create("p", join(dataDir, "project"));
  mkdirSync(project.path, { recursive: true });
  const service = new RunService({
    store,
    defs: [slow, broken],
    env,
    agents: { list: () => catalog.list(), capabilities: (id) => catalog.capabilities.get(id), liveModels: (id) => catalog.models(id), probed: (id) => catalog.probed(id) },
  });
  const close = async () => {
    catalog.close();
    await service.shutdown();
    store.close();
  };
  return { catalog, service, projectId: project.id, close };
}

// Each test has its own catalog and data dir, and waits out the slow probes: the two run at the same time.
test.concurrent("a run for an agent still being probed waits for its probes, then starts", async () => {
  const h = serviceWith(join(tmp.path, "waits"));
  try {
    // What the page sees at the deadline: the agent is still being probed.
    expect((await h.catalog.list()).find((agent) => agent.id === "slow")).toMatchObject({ state: "probing" });
    const { runId } = await h.service.create({ projectId: h.projectId, agentId: "slow", message: "hi" });
    const events: RunEvent[] = [];
    for await (const event of h.service.events(runId)) events.push(event);
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
    // The agent's own result (the pass as a whole may still be probing the other def: `peek` reads a finished pass).
    expect(await h.catalog.probed("slow")).toMatchObject({ state: "available", version: "slow 1.0" });
  } finally {
    await h.close();
  }
}, 30_000);

test.concurrent("a run for an agent whose late probe finds it broken is refused with that diagnosis, not 'still being probed'", async () => {
  const h = serviceWith(join(tmp.path, "refused"));
  try {
    expect((await h.catalog.list()).find((agent) => agent.id === "broken")).toMatchObject({ state: "probing" });
    const refused = h.service.create({ projectId: h.projectId, agentId: "broken", message: "hi" });
    await expect(refused).rejects.toMatchObject({ kind: "invalid", code: "AGENT_UNAVAILABLE" });
    const message = await refused.catch((error: Error) => error.message);
    expect(message).not.toContain("still being probed");
    expect(message).toContain("Test broken is not available");
    expect(message).toContain("exec: /opt/broken/cli: not found");
  } finally {
    await h.close();
  }
}, 30_000);
