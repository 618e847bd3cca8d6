import { Elysia } from "elysia";
import type * as AppConfigContract from "../contracts/app-config.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import type { AppConfigRepo } from "../store/app-config-repo.ts";
import { parseBody } from "./errors.ts";

/** The request schemas, built when a request first needs one: an idle daemon builds none (platform/load-on-first-use.ts). */
const appConfigContract = loadOnFirstUse<typeof AppConfigContract>(import.meta.url, "../contracts/app-config.ts", () => require("../contracts/app-config.ts"));

export const appConfigRoutes = (repo: AppConfigRepo) =>
  new Elysia({ name: "app-config" })
    .get("/api/app-config", () => ({ config: repo.get() }))
    .put("/api/app-config", ({ body }) => ({ config: repo.update(parseBody(appConfigContract().AppConfigPatch, body)) }));
