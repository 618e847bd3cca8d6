// Issue #39: the new-project form's folder picker reads the folders of a folder through GET /api/folders, from the
// home folder down, on this machine (tests/remote/folders-every-machine.test.ts: on an ssh host and in a container).
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderListResponse } from "../../server/contracts/folders.ts";
import { folderRoutes } from "../../server/http/folders.ts";
import { startTestApp } from "../support/app.ts";
import { tempDir } from "../support/temp.ts";

describe("GET /api/folders", () => {
  test("the home folder by default, then any folder: its folders sorted (hidden ones when asked), its parent", async () => {
    using home = tempDir("od-folders-");
    const root = realpathSync(home.path);
    for (const name of ["b-src", "A docs", "line\nbreak", ".hidden", "b-src/inner"]) mkdirSync(join(root, name));
    writeFileSync(join(root, "a-file.txt"), "not a folder\n");
    symlinkSync(join(root, "b-src"), join(root, "link-to-src"));
    await using app = await startTestApp({ modules: [folderRoutes({ env: { ...process.env, HOME: root } })] });
    const list = async (query: string) => FolderListResponse.parse(await (await app.call(`/api/folders${query}`)).json());

    const atHome = await list("");
    expect(atHome).toEqual({ path: root, parent: root.slice(0, root.lastIndexOf("/")) || "/", home: root, folders: ["A docs", "b-src", "line\nbreak", "link-to-src"], truncated: false });
    expect((await list("?hidden=1")).folders).toContain(".hidden");
    expect(await list(`?path=${encodeURIComponent("~/b-src")}`)).toMatchObject({ path: join(root, "b-src"), parent: root, folders: ["inner"] });
    expect((await list(`?path=${encodeURIComponent(join(root, "link-to-src"))}`)).path).toBe(join(root, "b-src"));
    expect((await list("?path=/")).parent).toBeNull();
  });

  test("a folder that is not there is a 404, a relative one a 400, a bad machine URL a 400", async () => {
    await using app = await startTestApp({ modules: [folderRoutes({ env: process.env })] });
    const code = async (query: string) => ((await (await app.call(`/api/folders${query}`)).json()) as { error: { code: string } }).error.code;
    expect(await code("?path=/no/such/folder/here")).toBe("FOLDER_NOT_FOUND");
    expect(await code("?path=relative/path")).toBe("INVALID_FOLDER");
    expect(await code("?location=ssh://")).toBe("INVALID_LOCATION");
  });
});
