// POST /api/projects/:id/uploads: images only (by their bytes), capped, names sanitised, never overwriting.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startEngine } from "../../server/engine.ts";
import { openDataDir } from "../../server/open-data-dir.ts";
import { Credentials } from "../../server/http/credentials.ts";
import { HttpError } from "../../server/http/errors.ts";
import { uploadRoutes } from "../../server/http/uploads.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { ORIGIN, startTestApp, TEST_PORT, TEST_TOKEN } from "../support/app.ts";
import { tempDir } from "../support/temp.ts";

const PNG_1PX = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const GIF_HEAD = Buffer.from("GIF89a\x01\x00\x01\x00", "latin1");
const WEBP_HEAD = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x1a, 0, 0, 0]), Buffer.from("WEBPVP8 ")]);

async function setup() {
  const temp = tempDir("od-http-uploads-");
  const projectDir = join(temp.path, "project");
  mkdirSync(projectDir);
  const app = await startTestApp({
    modules: [
      uploadRoutes((id) => {
        if (id !== "prj_1") throw new HttpError(404, "PROJECT_NOT_FOUND", `no project ${id}`);
        return projectDir;
      }),
    ],
  });
  return {
    app,
    projectDir,
    upload: (body: unknown, project = "prj_1") => app.json("POST", `/api/projects/${project}/uploads`, body),
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      temp[Symbol.dispose]();
    },
  };
}

test("a PNG is stored under .od/uploads and its project-relative path returned", async () => {
  await using s = await setup();
  const response = await s.upload({ name: "Screen Shot.png", mimeType: "image/png", dataBase64: PNG_1PX.toString("base64") });
  expect(response.status).toBe(201);
  expect(await response.json()).toEqual({ path: ".od/uploads/Screen-Shot.png", name: "Screen-Shot.png", mimeType: "image/png", size: PNG_1PX.length });
  expect(readFileSync(join(s.projectDir, ".od", "uploads", "Screen-Shot.png"))).toEqual(PNG_1PX);
});

test("jpeg, gif and webp are sniffed from the bytes; the extension follows the type, not the name", async () => {
  await using s = await setup();
  const paths = [];
  for (const [name, bytes] of [["a.png", JPEG_HEAD], ["b", GIF_HEAD], ["c.jpeg", WEBP_HEAD]] as const) {
    paths.push(((await (await s.upload({ name, dataBase64: bytes.toString("base64") })).json()) as { path: string }).path);
  }
  expect(paths).toEqual([".od/uploads/a.jpg", ".od/uploads/b.gif", ".od/uploads/c.webp"]);
});

test("collisions get a suffix, never an overwrite; a data: URL prefix is accepted", async () => {
  await using s = await setup();
  const body = { name: "shot.png", dataBase64: `data:image/png;base64,${PNG_1PX.toString("base64")}` };
  const paths = [];
  for (let i = 0; i < 3; i++) paths.push(((await (await s.upload(body)).json()) as { path: string }).path);
  expect(paths).toEqual([".od/uploads/shot.png", ".od/uploads/shot-2.png", ".od/uploads/shot-3.png"]);
});

test("traversal and odd names stay inside .od/uploads", async () => {
  await using s = await setup();
  for (const name of ["../../escape.png", "..\\..\\win.png", "/etc/passwd", "....png", "a/../../b.png", "\u0000nul.png", "<script>.png"]) {
    const response = await s.upload({ name, dataBase64: PNG_1PX.toString("base64") });
    expect(response.status).toBe(201);
    const { path } = (await response.json()) as { path: string };
    expect(path).toMatch(/^\.od\/uploads\/[A-Za-z0-9][A-Za-z0-9._-]*\.png$/);
  }
  expect(readdirSync(s.projectDir)).toEqual([".od"]);
  expect(readdirSync(join(s.projectDir, ".od"))).toEqual(["uploads"]);
});

test("non-images → 415, oversize → 413, bad base64 → 400, unknown project → 404; nothing is written", async () => {
  await using s = await setup();
  const html = await s.upload({ name: "x.png", mimeType: "image/png", dataBase64: Buffer.from("<html><script>alert(1)</script>").toString("base64") });
  expect(html.status).toBe(415);
  expect(((await html.json()) as { error: { code: string } }).error.code).toBe("UNSUPPORTED_IMAGE_TYPE");
  const svg = await s.upload({ name: "x.svg", dataBase64: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64") });
  expect(svg.status).toBe(415);
  const big = Buffer.concat([PNG_1PX, Buffer.alloc(10 * 1024 * 1024)]);
  const tooLarge = await s.upload({ name: "big.png", dataBase64: big.toString("base64") });
  expect(tooLarge.status).toBe(413);
  expect((await s.upload({ name: "x.png", dataBase64: "!!!not base64!!!" })).status).toBe(400);
  expect((await s.upload({ name: "x.png" })).status).toBe(400);
  expect((await s.upload({ name: "x.png", dataBase64: PNG_1PX.toString("base64") }, "nope")).status).toBe(404);
  expect(existsSync(join(s.projectDir, ".od", "uploads")) ? readdirSync(join(s.projectDir, ".od", "uploads")) : []).toEqual([]);
}, 30_000); // a 14 MB JSON body is slow to build on a loaded 2-core machine

test("an upload to a project on another machine is kept on this one, where its runs copy it over from", async () => {
  using dir = tempDir("od-http-uploads-remote-");
  const engine = await startEngine({ data: openDataDir(dir.path, openBunSqlite), env: {}, guard: { credentials: new Credentials(TEST_TOKEN), port: () => TEST_PORT } });
  try {
    const project = engine.store.projects.create("remote", "ssh://some-host/srv/app");
    const response = await engine.app.handle(
      new Request(`${ORIGIN}/api/projects/${project.id}/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json", origin: ORIGIN },
        body: JSON.stringify({ name: "shot.png", dataBase64: PNG_1PX.toString("base64") }),
      }),
    );
    expect(response.status).toBe(201);
    expect(((await response.json()) as { path: string }).path).toBe(".od/uploads/shot.png");
    expect(readFileSync(join(dir.path, "remote-uploads", project.id, ".od", "uploads", "shot.png"))).toEqual(PNG_1PX);
  } finally {
    await engine.stop();
  }
});
