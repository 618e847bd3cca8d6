// Project folders and the files in them: system folders and od's data are never projects or served; frames and
// images read a file through a short-lived ticket URL instead of a credential.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Credentials } from "../../server/http/credentials.ts";
import { projectRoutes } from "../../server/http/projects.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";
import { ORIGIN, startTestApp, TEST_TOKEN, testWorktrees } from "../support/app.ts";
import { tempDir } from "../support/temp.ts";
import { DiskSpace } from "../../server/store/disk-space.ts";

async function setup(now: () => number = Date.now) {
  const temp = tempDir("od-files-");
  const dataDir = join(temp.path, "data");
  mkdirSync(dataDir);
  const store = Store.open(join(dataDir, "od.db"), openBunSqlite);
  store.close();
  const credentials = new Credentials(TEST_TOKEN, now);
  const app = await startTestApp({ dataDir, credentials });
  const projects = new ProjectService(app.store, dataDir);
  const withRoutes = await startTestApp({ dataDir, credentials, modules: [projectRoutes(app.store, projects, credentials, testWorktrees(app.store), new DiskSpace(undefined))] });
  return {
    ...withRoutes,
    root: temp.path,
    async [Symbol.asyncDispose]() {
      await withRoutes[Symbol.asyncDispose]();
      await app[Symbol.asyncDispose]();
      temp[Symbol.dispose]();
    },
  };
}

describe("project folders", () => {
  test("the filesystem root, system folders and od's data dir are refused as projects", async () => {
    await using t = await setup();
    for (const path of ["/", "/etc", "/proc", "/proc/self", "/dev", "/sys", "/usr", t.dataDir, join(t.dataDir, "projects")]) {
      const res = await t.json("POST", "/api/projects", { name: "x", path });
      expect([path, res.status]).toEqual([path, 400]);
      expect((await res.json()).error.code).toBe("INVALID_PROJECT_PATH");
    }
    mkdirSync(join(t.dataDir, "projects", "mine"), { recursive: true });
    expect((await t.json("POST", "/api/projects", { name: "ok", path: join(t.dataDir, "projects", "mine") })).status).toBe(201);
  });

  test("a system folder registered before is not served from", async () => {
    await using t = await setup();
    const project = t.store.projects.create("proc", "/proc");
    const res = await t.call(`/api/projects/${project.id}/files/raw?path=self/status`);
    expect(res.status).toBe(400);
  });

  test("od's own data is never served, even from a project that contains the data dir", async () => {
    await using t = await setup();
    const project = (await (await t.json("POST", "/api/projects", { name: "home", path: t.root })).json()).project;
    writeFileSync(join(t.root, "readme.txt"), "hello");
    expect((await t.call(`/api/projects/${project.id}/files/raw?path=readme.txt`)).status).toBe(200);
    expect((await t.call(`/api/projects/${project.id}/files/raw?path=data/od.db`)).status).toBe(404);
  });
});

describe("file tickets", () => {
  test("a ticket opens exactly one file without a bearer header, and only for a while", async () => {
    let now = 1_000_000;
    await using t = await setup(() => now);
    const folder = join(t.root, "site");
    mkdirSync(folder);
    writeFileSync(join(folder, "index.html"), "<h1>hi</h1>");
    writeFileSync(join(folder, "other.html"), "<h1>other</h1>");
    const project = (await (await t.json("POST", "/api/projects", { name: "site", path: folder })).json()).project;
    const link = await (await t.json("POST", `/api/projects/${project.id}/files/link`, { path: "index.html" })).json();
    expect(link.url).toMatch(/^\/api\/projects\/[^/]+\/files\/raw\?path=index\.html&ticket=[\w-]+$/);
    const open = (url: string) => t.app.handle(new Request(`${ORIGIN}${url}`));
    const res = await open(link.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("<h1>hi</h1>");
    expect(res.headers.get("content-security-policy")).toBe("sandbox allow-scripts");
    expect((await open(link.url.replace("path=index.html", "path=other.html"))).status).toBe(401);
    expect((await t.app.handle(new Request(`${ORIGIN}${link.url}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }))).status).toBe(401);
    expect((await open(`/api/projects/${project.id}/files?ticket=${new URL(link.url, ORIGIN).searchParams.get("ticket")}`)).status).toBe(401);
    now += 11 * 60 * 1000;
    expect((await open(link.url)).status).toBe(401);
  });

  test("no ticket for a file outside the project", async () => {
    await using t = await setup();
    const folder = join(t.root, "p");
    mkdirSync(folder);
    const project = (await (await t.json("POST", "/api/projects", { name: "p", path: folder })).json()).project;
    for (const path of ["../data/od.db", "/etc/passwd", "missing.txt"]) {
      expect([path, (await t.json("POST", `/api/projects/${project.id}/files/link`, { path })).status]).toEqual([path, 404]);
    }
  });
});
