// Issues #21 and #36: artifacts are written where the project is. A plain-stream CLI's <artifact> blocks become files in
// the project, on this machine, the test sshd or a container of the test Docker engine alike, named there without
// touching what the folder already holds (an existing file, a symlink whose name differs only in case), and the
// run's end and artifact events point at them.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { agentEvents, endOf, fakeCliEnvThere, runHarness } from "../support/fake-agents.ts";
import { machineKinds, onMachine, useTestMachines } from "../support/test-machines.ts";
import { tempDir } from "../support/temp.ts";

// Each test starts and ends runs over a real ssh connection (a login, the run, its sweep there): seconds apiece on an
// idle machine, and several times that on a loaded 2-core one, where bun's 20 s default failed them at random.
setDefaultTimeout(60_000);

const machines = useTestMachines();

const deepseek = getAgentDef("deepseek") as RuntimeAgentDef;

describe.each(machineKinds(machines).map((kind) => [kind.name, kind] as const))("plain-stream artifacts of a run in a project on %s", (_name, kind) => {
  test("land in the project folder under a free name; existing files and symlinks are left alone", async () => {
    using temp = tempDir("od-remote-artifacts-");
    const folder = join(temp.path, "it's $(touch pwned) `x`; *");
    const elsewhere = join(temp.path, "elsewhere.html");
    mkdirSync(folder);
    writeFileSync(join(folder, "landing-page.html"), "the user's page\n");
    symlinkSync(elsewhere, join(folder, "Landing-Page-2.HTML"));
    const page = `<artifact identifier="landing-page" type="text/html" title="Landing">\n<!doctype html><p>it's $(id)</p>\n</artifact>`;
    const notes = `<artifact identifier="../../notes" type="text/markdown">\n# notes\n</artifact>`;
    await using h = await runHarness({
      defs: [deepseek],
      shims: { deepseek: undefined },
      steps: [...`${page}\n${notes}`.split("\n").map((out) => ({ out })), { readAll: true }],
      projectDir: folder,
      ...onMachine(kind),
    });
    h.store.appConfig.update({ agentCliEnv: { deepseek: fakeCliEnvThere(h) } });

    const { events } = await h.run({ agentId: "deepseek", message: "make a page" });
    const end = endOf(events);
    expect(end.status).toBe("succeeded");
    expect(events.filter((e) => e.type === "diagnostic")).toEqual([]);
    expect(agentEvents(events).filter((e) => e.type === "artifact")).toEqual([
      expect.objectContaining({ name: "landing-page-3.html", path: "landing-page-3.html", identifier: "landing-page", artifactType: "text/html" }),
      expect.objectContaining({ name: "notes.md", path: "notes.md", identifier: "../../notes" }),
    ]);
    expect(end.files).toEqual(["landing-page-3.html", "notes.md"]);
    expect(readFileSync(join(folder, "landing-page-3.html"), "utf8")).toBe("<!doctype html><p>it's $(id)</p>\n");
    expect(readFileSync(join(folder, "notes.md"), "utf8")).toBe("# notes\n");
    expect(readFileSync(join(folder, "landing-page.html"), "utf8")).toBe("the user's page\n");
    expect(existsSync(elsewhere)).toBe(false);
    expect(readdirSync(temp.path)).toEqual([folder.slice(temp.path.length + 1)]);
    expect(readdirSync(folder).sort()).toEqual(["Landing-Page-2.HTML", "landing-page-3.html", "landing-page.html", "notes.md"]);
  });
});
