import { expect, test } from "bun:test";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { baseAgentDefs } from "../../server/runtimes/registry.ts";

test("a stream opened right after a finished pass replays it instead of probing every CLI again", async () => {
  let passes = 0;
  const catalog = new AgentCatalog({
    defs: baseAgentDefs().slice(0, 2),
    deps: () => {
      passes++;
      return { env: { PATH: "/nonexistent" } };
    },
  });
  await catalog.rescan();
  const replayed: string[] = [];
  for await (const agent of catalog.stream()) replayed.push(agent.id);
  expect(replayed).toEqual(baseAgentDefs().slice(0, 2).map((d) => d.id));
  expect(passes).toBe(1);
  const fresh: string[] = [];
  for await (const agent of catalog.stream(0)) fresh.push(agent.id);
  expect(fresh.sort()).toEqual(baseAgentDefs().slice(0, 2).map((d) => d.id).sort());
  expect(passes).toBe(2);
});
