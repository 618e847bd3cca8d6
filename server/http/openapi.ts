/**
 * `GET /api/openapi.json`: the API as an OpenAPI 3.1 document (server/http/openapi-document.ts), authenticated like
 * every other /api route. The binary serves the copy its build generated (dist/openapi.json); a source run generates
 * it on first request. Either way the text is made once and kept.
 */
import { Elysia } from "elysia";

/** The document's JSON text. */
export type OpenApiSource = () => string | Promise<string>;

export function openApiRoutes(source: OpenApiSource) {
  let text: Promise<string> | undefined;
  return new Elysia({ name: "openapi" }).get("/api/openapi.json", async () => {
    // A failed read or generation is not kept: the next request tries again.
    text ??= Promise.resolve()
      .then(source)
      .catch((error: unknown) => {
        text = undefined;
        throw error;
      });
    return new Response(await text, { headers: { "content-type": "application/json" } });
  });
}

/** The source of a run from source: generate from the route table (loaded only when a client asks). */
export function generatedOpenApi(version: string): OpenApiSource {
  return async () => JSON.stringify((await import("./openapi-document.ts")).openApiDocument(version));
}
