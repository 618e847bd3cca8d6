/** The daemon's catalog (createServices): probes read agentCliEnv from the store at each pass. */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { createServices } from "../../server/services.ts";
import { Store } from "../../server/store/store.ts";
import { fakePath, writeFakeCli } from "../support/agents-fake-cli.ts";
import { tempDir } from "../support/temp.ts";

const tmp = tempDir("od-services-detect-");
afterAll(() => tmp[Symbol.dispose]());

test("models configured for an agent through agentCliEnv show after a rescan, without a restart", async () => {
  const bin = join(tmp.path, "bin");
  const fakePi = writeFakeCli(
    bin,
    "od-fake-pi",
    `case "$1" in --version) echo 0.73.1;; --list-models) printf 'provider model\\n%s fake-model\\n' "\${OD_FAKE_PROVIDER:-base}";; esac`,
  );
  const dataDir = join(tmp.path, "data");
  const store = Store.open(join(dataDir, "od.db"), openBunSqlite);
  try {
    const services = createServices({ store, dataDir, env: { PATH: fakePath(bin), HOME: tmp.path, PI_BIN: fakePi }, onlyAgentIds: ["pi"] });
    const before = await services.catalog.list();
    expect(before[0]?.models.map((model) => model.id)).toContain("base/fake-model");
    store.appConfig.update({ agentCliEnv: { pi: { OD_FAKE_PROVIDER: "configured" } } });
    const after = await services.catalog.rescan();
    expect(after[0]?.models.map((model) => model.id)).toContain("configured/fake-model");
    expect(services.catalog.models("pi")?.map((model) => model.id)).toContain("configured/fake-model");
  } finally {
    store.close();
  }
}, 30_000);
