import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { API_ROUTES } from "../../server/contracts/api-routes.ts";
import { startEngine } from "../../server/engine.ts";
import { Credentials } from "../../server/http/credentials.ts";
import { openApiRoutes } from "../../server/http/openapi.ts";
import { openApiDocument } from "../../server/http/openapi-document.ts";
import { openDataDir } from "../../server/open-data-dir.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { VERSION } from "../../server/version.ts";
import { tempDir } from "../support/temp.ts";

const TOKEN = "openapi-test-token";
const PORT = 7456;

/** The whole engine app, as the daemon mounts it (every route module). */
async function withEngine(body: (engine: Awaited<ReturnType<typeof startEngine>>) => Promise<void>): Promise<void> {
  using dir = tempDir("od-openapi-");
  const engine = await startEngine({ data: openDataDir(dir.path, openBunSqlite), env: {}, guard: { credentials: new Credentials(TOKEN), port: () => PORT } });
  try {
    await body(engine);
  } finally {
    await engine.stop();
  }
}

type Document = { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>> };

function documentRoutes(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
}

describe("GET /api/openapi.json", () => {
  test("lists exactly the /api routes the app mounts, and the route table lists each once", async () => {
    await withEngine(async ({ app }) => {
      const mounted = app.routes
        .filter((route) => route.path.startsWith("/api/"))
        .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`)
        .sort();
      const table = API_ROUTES.map((route) => `${route.method} ${route.path}`);
      expect(new Set(table).size).toBe(table.length);
      expect(mounted.length).toBeGreaterThan(30);
      expect(documentRoutes(openApiDocument(VERSION) as Document).sort()).toEqual(mounted);
    });
  });

  test("is served to an authenticated client, validates as OpenAPI 3.1 and carries the request bodies", async () => {
    await withEngine(async ({ app }) => {
      const url = `http://127.0.0.1:${PORT}/api/openapi.json`;
      expect((await app.handle(new Request(url))).status).toBe(401);
      const res = await app.handle(new Request(url, { headers: { authorization: `Bearer ${TOKEN}` } }));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      const document = (await res.json()) as Document;
      expect(document.openapi).toBe("3.1.0");
      const validator = new Validator();
      expect(await validator.validate(document)).toEqual({ valid: true });
      expect(validator.version).toBe("3.1");
      const runBody = document.paths["/api/runs"]!.post!.requestBody!.content["application/json"]!.schema;
      expect(runBody.required).toEqual(["projectId", "message"]);
      const projectBody = document.paths["/api/projects"]!.post!.requestBody!.content["application/json"]!.schema;
      expect(projectBody.required).toEqual(["name"]);
      expect(projectBody).toMatchObject({ additionalProperties: false }); // od refuses unknown body fields
      // Answers may gain fields (contracts grow by adding), so no answer schema is closed.
      expect(JSON.stringify((document.paths as Record<string, unknown>)["/api/runs/{id}"])).not.toContain('"additionalProperties":false');
    });
  });

  test("the API guide (docs/api.md, linked from the README) names every route", () => {
    const section = readFileSync(join(import.meta.dir, "..", "..", "docs", "api.md"), "utf8");
    const named = (path: string) => new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w/:.-])`).test(section);
    const missing = [...new Set(API_ROUTES.map((route) => route.path))].filter((path) => !named(path));
    expect(section.length).toBeGreaterThan(1000);
    expect(missing).toEqual([]);
  });

  test("a document that could not be read is tried again on the next request, then kept", async () => {
    let calls = 0;
    const routes = openApiRoutes(async () => {
      calls += 1;
      if (calls === 1) throw new Error("embedded file unreadable");
      return '{"openapi":"3.1.0"}';
    });
    const get = () => routes.handle(new Request("http://127.0.0.1/api/openapi.json"));
    expect((await get()).status).toBe(500);
    expect(await (await get()).json()).toEqual({ openapi: "3.1.0" });
    await get();
    expect(calls).toBe(2);
  });

  test("the validator is not a rubber stamp: a document with a broken operation fails", async () => {
    const broken = structuredClone(openApiDocument(VERSION)) as Document;
    (broken.paths["/api/runs"]!.post as Record<string, unknown>).responses = "none";
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });
});
