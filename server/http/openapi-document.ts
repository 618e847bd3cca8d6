/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the route table (server/contracts/api-routes.ts) with
 * zod's own JSON Schema output, so clients in any language can be generated from `GET /api/openapi.json`. Pure:
 * the same table gives the same document. The build writes it to dist/openapi.json for the binary to embed.
 */
import { z } from "../contracts/zod.ts";
import { API_ROUTES, type ApiRoute, type RouteReply } from "../contracts/api-routes.ts";
import { ErrorBody } from "../contracts/http.ts";
import { bodyLimitOf } from "./body-limit.ts";

type JsonObject = Record<string, unknown>;

/** Refusals any guarded route can answer before its handler runs (server/http/guard.ts). */
const GUARD_ERRORS: Record<number, string> = {
  400: "BAD_HOST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN_HOST, FORBIDDEN_ORIGIN, FORBIDDEN_SITE",
};
const WRITE_ERRORS: Record<number, string> = { 415: "UNSUPPORTED_MEDIA_TYPE" };
/** A body past its route's limit (server/http/body-limit.ts), whatever the route. */
const BODY_ERRORS: Record<number, string> = { 413: "PAYLOAD_TOO_LARGE" };

export function openApiDocument(version: string, routes: readonly ApiRoute[] = API_ROUTES): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "od",
      version,
      description:
        "The API of od's daemon on 127.0.0.1. Every route but health and the launch-code trade needs `Authorization: Bearer` " +
        "with the API token (OD_TOKEN) or a session secret from `POST /api/session`; writes must send `Content-Type: application/json`.",
    },
    paths,
    components: {
      schemas: { ErrorBody: schemaOf(ErrorBody, "output") },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "The API token (OD_TOKEN) or a session secret" },
        fileTicket: { type: "apiKey", in: "query", name: "ticket", description: "From POST /api/projects/{id}/files/link; opens that one file" },
      },
    },
    security: [{ bearer: [] }],
  };
}

function operation(route: ApiRoute): JsonObject {
  const op: JsonObject = { operationId: operationId(route), summary: route.summary };
  if (route.auth === "open") op.security = [];
  if (route.auth === "bearer-or-file-ticket") op.security = [{ bearer: [] }, { fileTicket: [] }];
  const parameters = [...pathParameters(route.path), ...queryParameters(route.query)];
  if (parameters.length) op.parameters = parameters;
  if (route.body) {
    const limit = bodyLimitOf(route.method, route.path);
    op.requestBody = { required: route.body.required, description: `At most ${limit} bytes (${(limit / 1024).toFixed(0)} KiB); a larger body is a 413 PAYLOAD_TOO_LARGE.`, content: { "application/json": { schema: schemaOf(route.body.schema, "input") } } };
  }
  op.responses = { ...successResponses(route.replies), ...errorResponses(route) };
  return op;
}

/** `GET /api/projects/:id/files` → `getApiProjectsIdFiles`: stable, unique, and a valid identifier everywhere. */
function operationId(route: ApiRoute): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

function pathParameters(path: string): JsonObject[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => ({ name: match[1], in: "path", required: true, schema: { type: "string" } }));
}

function queryParameters(query: z.ZodObject | undefined): JsonObject[] {
  if (!query) return [];
  const schema = schemaOf(query, "input");
  const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: "query", required: required.has(name), schema: property }));
}

function successResponses(replies: readonly RouteReply[]): Record<string, JsonObject> {
  const responses: Record<string, { description: string; content: JsonObject }> = {};
  for (const reply of replies) {
    const response = (responses[String(reply.status)] ??= { description: "", content: {} });
    if ("json" in reply) {
      response.content["application/json"] = { schema: schemaOf(reply.json, "output") };
      response.description ||= "OK";
    } else if ("eventStream" in reply) {
      response.content["text/event-stream"] = { schema: { type: "string", description: "server-sent events" }, "x-event": schemaOf(reply.eventStream.event, "output") };
      response.description = response.description ? `${response.description}, or (?stream) ${reply.eventStream.description}` : reply.eventStream.description;
    } else {
      response.content["*/*"] = { schema: { type: "string", contentMediaType: "application/octet-stream" } };
      response.description = reply.file;
    }
  }
  return responses;
}

function errorResponses(route: ApiRoute): Record<string, JsonObject> {
  const codes = new Map<number, string[]>();
  const add = (table: Record<number, string>) => {
    for (const [status, names] of Object.entries(table)) codes.set(Number(status), [...(codes.get(Number(status)) ?? []), names]);
  };
  add(route.auth === "open" ? { 400: GUARD_ERRORS[400]!, 403: GUARD_ERRORS[403]! } : GUARD_ERRORS);
  if (route.method !== "GET" && route.auth !== "open") add(WRITE_ERRORS);
  if (route.body) add(BODY_ERRORS);
  add(route.errors);
  const responses: Record<string, JsonObject> = {};
  for (const [status, names] of [...codes].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `error.code: ${names.join(", ")}`,
      content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
    };
  }
  return responses;
}

/**
 * One schema, inlined (no `$defs`: a `#/…` reference inside a path item would point at the document root). An
 * answer (`output`) is open to new fields, since contracts grow by adding them: zod's closed output objects are
 * opened, so a generated client keeps working when an answer gains one. Request bodies stay as strict as od is.
 */
function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonObject;
  if ("$defs" in json) throw new Error("a recursive schema cannot be inlined into the OpenAPI document");
  return io === "output" ? (openObjects(json) as JsonObject) : json;
}

function openObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openObjects);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).filter(([key, child]) => !(key === "additionalProperties" && child === false));
  return Object.fromEntries(entries.map(([key, child]) => [key, openObjects(child)]));
}
