// Issue #39: the new-project form's folder picker: which machine and folder the path field names, browsing from
// there (or the home folder), and the chosen folder as the field takes it.
import { describe, expect, test } from "bun:test";
import { createApi } from "../../web/api/client.ts";
import { createFolderPicker, splitLocation } from "../../web/state/folder-picker.ts";
import { fakeFetch } from "../support/web-fake-fetch.ts";

describe("folder picker", () => {
  test("the path field's machine and folder", () => {
    expect(splitLocation("")).toEqual({ location: null, path: undefined });
    expect(splitLocation(" /srv/site ")).toEqual({ location: null, path: "/srv/site" });
    expect(splitLocation("~/code")).toEqual({ location: null, path: "~/code" });
    expect(splitLocation("my-site")).toEqual({ location: null, path: undefined });
    expect(splitLocation("ssh://me@box:2222/home/me/app")).toEqual({ location: "ssh://me@box:2222", path: "/home/me/app" });
    expect(splitLocation("docker://web")).toEqual({ location: "docker://web", path: undefined });
  });

  test("opens on the machine the field names, goes into a folder, and gives it back as a URL of that machine", async () => {
    const listing = (path: string, folders: string[]) => Response.json({ path, parent: path === "/" ? null : "/", home: "/home/me", folders, truncated: false });
    const { fetch, calls } = fakeFetch({
      "GET /api/folders?location=ssh%3A%2F%2Fbox": () => listing("/home/me", ["app", "notes"]),
      "GET /api/folders?path=%2Fhome%2Fme%2Fapp&location=ssh%3A%2F%2Fbox": () => listing("/home/me/app", []),
    });
    const picker = createFolderPicker(createApi(fetch));
    await picker.open("ssh://box");
    expect(picker.listing.value?.folders).toEqual(["app", "notes"]);
    await picker.go("/home/me/app");
    expect(picker.chosen()).toBe("ssh://box/home/me/app");
    expect(calls.map((c) => c.url)).toEqual(["/api/folders?location=ssh%3A%2F%2Fbox", "/api/folders?path=%2Fhome%2Fme%2Fapp&location=ssh%3A%2F%2Fbox"]);
  });

  test("a typed folder that is not there: the reason, and the home folder instead", async () => {
    const { fetch } = fakeFetch({
      "GET /api/folders?path=%2Fgone": () => Response.json({ error: { code: "FOLDER_NOT_FOUND", message: "no folder /gone on this machine" } }, { status: 404 }),
      "GET /api/folders?": () => Response.json({ path: "/home/me", parent: "/home", home: "/home/me", folders: [], truncated: false }),
    });
    const picker = createFolderPicker(createApi(fetch));
    await picker.open("/gone");
    expect(picker.listing.value?.path).toBe("/home/me");
    expect(picker.error.value).toBe("no folder /gone on this machine");
  });
});
