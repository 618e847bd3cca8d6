import { Elysia } from "elysia";
import type { z } from "zod";
import type { HealthResponse } from "../contracts/http.ts";

export const healthRoutes = (version: string) =>
  new Elysia({ name: "health" }).get("/api/health", (): z.infer<typeof HealthResponse> => ({ ok: true, version, ready: true }));
