import { Elysia } from "elysia";
import type { AppConfigRepo } from "../store/app-config-repo.ts";
import { parseBody } from "./errors.ts";
import { appConfigContract } from "./request-schemas.ts";

export const appConfigRoutes = (repo: AppConfigRepo) =>
  new Elysia({ name: "app-config" })
    .get("/api/app-config", () => ({ config: repo.get() }))
    .put("/api/app-config", ({ body }) => ({ config: repo.update(parseBody(appConfigContract().AppConfigPatch, body)) }));
