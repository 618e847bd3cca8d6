#!/usr/bin/env bun
/** Writes dist/openapi.json: the API's OpenAPI 3.1 document, generated from the route table, for the binary to embed. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openApiDocument } from "../server/http/openapi-document.ts";
import { VERSION } from "../server/version.ts";

const root = join(import.meta.dir, "..");

export function buildOpenApi(): string {
  const out = join(root, "dist", "openapi.json");
  mkdirSync(join(root, "dist"), { recursive: true });
  writeFileSync(out, JSON.stringify(openApiDocument(VERSION)));
  return out;
}

if (import.meta.main) console.log(`wrote ${buildOpenApi().replace(root + "/", "")}`);
