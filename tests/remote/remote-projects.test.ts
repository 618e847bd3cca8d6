// Issue #21: a project can live on another machine. POST /api/projects takes ssh:// paths, checks the folder there
// with one ssh command, refuses system folders on the remote side too, and says fast when the host is unreachable.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Credentials } from "../../server/http/credentials.ts";
import { projectRoutes } from "../../server/http/projects.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { startTestApp, TEST_TOKEN, testWorktrees } from "../support/app.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";
import { DiskSpace } from "../../server/store/disk-space.ts";

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(() => sshd?.close());

async function setup() {
  const temp = tempDir("od-remote-projects-");
  const dataDir = join(temp.path, "data");
  mkdirSync(dataDir);
  const credentials = new Credentials(TEST_TOKEN);
  const base = await startTestApp({ dataDir, credentials });
  const projects = new ProjectService(base.store, dataDir, { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir });
  const app = await startTestApp({ dataDir, credentials, modules: [projectRoutes(base.store, projects, credentials, testWorktrees(base.store), new DiskSpace(undefined))] });
  return {
    ...app,
    root: temp.path,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      await base[Symbol.asyncDispose]();
      temp[Symbol.dispose]();
    },
  };
}

describe("remote projects", () => {
  test("an ssh:// folder (hostile name) is checked there and stored as the canonical URL of its real path", async () => {
    await using t = await setup();
    const folder = join(t.root, "it's $(id) `x`; folder");
    mkdirSync(folder);
    symlinkSync(folder, join(t.root, "link"));
    const res = await t.json("POST", "/api/projects", { name: "remote", path: `ssh://${SSH_TEST_HOST}${t.root}/./link/` });
    expect(res.status).toBe(201);
    const { project } = (await res.json()) as { project: { path: string } };
    expect(project.path).toBe(`ssh://${SSH_TEST_HOST}${folder}`);
    const again = await t.json("POST", "/api/projects", { name: "again", path: `ssh://${SSH_TEST_HOST}${folder}` });
    expect(again.status).toBe(409);
  });

  test("ssh://host/~/dir is dir in the remote user's home, stored as its real path", async () => {
    await using t = await setup();
    // ~ is $HOME there, as a shell has it: the test sshd gives this account's sessions a home of its own.
    const folder = mkdtempSync(join(sshd.home, "od-tilde-"));
    try {
      const name = folder.slice(sshd.home.length + 1);
      const res = await t.json("POST", "/api/projects", { name: "home", path: `ssh://${SSH_TEST_HOST}/~/${name}` });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { project: { path: string } }).project.path).toBe(`ssh://${SSH_TEST_HOST}${folder}`);
      const missing = await t.json("POST", "/api/projects", { name: "x", path: `ssh://${SSH_TEST_HOST}/~/${name}-nope` });
      expect(missing.status).toBe(400);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("a missing remote folder is a 400; system folders there are refused too", async () => {
    await using t = await setup();
    const missing = await t.json("POST", "/api/projects", { name: "x", path: `ssh://${SSH_TEST_HOST}${t.root}/nope` });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("INVALID_PROJECT_PATH");
    for (const path of ["/", "/etc", "/proc/self", "/usr"]) {
      const res = await t.json("POST", "/api/projects", { name: "x", path: `ssh://${SSH_TEST_HOST}${path}` });
      expect([path, res.status]).toEqual([path, 400]);
    }
    // A symlink into a system folder is judged by where it leads.
    symlinkSync("/etc", join(t.root, "etc-link"));
    const viaLink = await t.json("POST", "/api/projects", { name: "x", path: `ssh://${SSH_TEST_HOST}${t.root}/etc-link` });
    expect(viaLink.status).toBe(400);
  });

  test("malformed URLs are INVALID_PROJECT_PATH; an unreachable host is REMOTE_UNREACHABLE, fast", async () => {
    await using t = await setup();
    const bad = await t.json("POST", "/api/projects", { name: "x", path: "ssh://-oProxyCommand=touch%20x/tmp" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("INVALID_PROJECT_PATH");
    const started = Date.now();
    const down = await t.json("POST", "/api/projects", { name: "x", path: "ssh://127.0.0.1:1/tmp" });
    expect(down.status).toBe(502);
    expect(((await down.json()) as { error: { code: string } }).error.code).toBe("REMOTE_UNREACHABLE");
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test("the files panel lists and reads files there; escapes and hidden folders stay out", async () => {
    await using t = await setup();
    const folder = join(t.root, "proj");
    mkdirSync(join(folder, "src"), { recursive: true });
    mkdirSync(join(folder, ".git"));
    writeFileSync(join(folder, "src", "it's $(x).txt"), "hostile name");
    writeFileSync(join(folder, "index.html"), "<p>hi</p>");
    writeFileSync(join(folder, ".git", "HEAD"), "ref");
    symlinkSync("/etc/hostname", join(folder, "escape"));
    const created = await t.json("POST", "/api/projects", { name: "files", path: `ssh://${SSH_TEST_HOST}${folder}` });
    const { project } = (await created.json()) as { project: { id: string } };
    const list = await t.call(`/api/projects/${project.id}/files`);
    expect(list.status).toBe(200);
    const { files } = (await list.json()) as { files: { path: string; size: number }[] };
    expect(files.map((f) => f.path).sort()).toEqual(["index.html", "src/it's $(x).txt"]);
    expect(files.find((f) => f.path === "index.html")!.size).toBe(9);
    const raw = await t.call(`/api/projects/${project.id}/files/raw?path=${encodeURIComponent("src/it's $(x).txt")}`);
    expect(raw.status).toBe(200);
    expect(await raw.text()).toBe("hostile name");
    for (const path of ["escape", "../proj/index.html/..", "/etc/hostname", "../../etc/hostname", "src", "missing"]) {
      const res = await t.call(`/api/projects/${project.id}/files/raw?path=${encodeURIComponent(path)}`);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });
});
