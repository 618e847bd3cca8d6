import { Elysia } from "elysia";
import { AppConfigPatch } from "../contracts/app-config.ts";
import type { AppConfigRepo } from "../store/app-config-repo.ts";
import { parseBody } from "./errors.ts";

export const appConfigRoutes = (repo: AppConfigRepo) =>
  new Elysia({ name: "app-config" })
    .get("/api/app-config", () => ({ config: repo.get() }))
    .put("/api/app-config", ({ body }) => ({ config: repo.update(parseBody(AppConfigPatch, body)) }));
