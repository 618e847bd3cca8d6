// Issue #39: the folder picker browses the project's machine: GET /api/folders?location= lists the same folders of
// the same folder on this machine, the test sshd and a container (they share this machine's temp dir), hostile
// names included, and each machine's own home folder by default.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { FolderListResponse } from "../../server/contracts/folders.ts";
import { folderRoutes } from "../../server/http/folders.ts";
import { startTestApp } from "../support/app.ts";
import { machineKinds, useTestMachines } from "../support/test-machines.ts";
import { tempDir } from "../support/temp.ts";

setDefaultTimeout(60_000);

const machines = useTestMachines();
const HOSTILE = "it's $(touch pwned) `x`; *\n-rf ünï";

describe.each(machineKinds(machines).map((kind) => [kind.name, kind] as const))("GET /api/folders on %s", (_name, kind) => {
  test("lists a folder's folders, hostile names included, and the machine's own home by default", async () => {
    using temp = tempDir("od-folders-remote-");
    const root = realpathSync(temp.path);
    for (const name of ["src", HOSTILE, ".git"]) mkdirSync(join(root, name));
    await using app = await startTestApp({ modules: [folderRoutes(kind.context() ?? { env: process.env })] });
    const location = kind.url("/") === "/" ? "" : `&location=${encodeURIComponent(kind.url("").replace(/\/$/, ""))}`;
    const listed = FolderListResponse.parse(await (await app.call(`/api/folders?path=${encodeURIComponent(root)}${location}`)).json());
    expect(listed).toMatchObject({ path: root, folders: [HOSTILE, "src"].sort((a, b) => a.localeCompare(b)) });
    const home = FolderListResponse.parse(await (await app.call(`/api/folders?x=1${location}`)).json());
    expect(home.path).toBe(home.home);
    expect(home.home.startsWith("/")).toBe(true);
  });
});
