/** Usage: what finished runs reported using (tokens, cost, duration), per run, for the usage view. Read-only. */
import { Elysia } from "elysia";
import type { UsageResponse } from "../contracts/usage.ts";
import type * as UsageContract from "../contracts/usage.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import type { RunsRepo } from "../store/runs-repo.ts";
import { parseBody } from "./errors.ts";

/** The request schemas, built when a request first needs one: an idle daemon builds none (platform/load-on-first-use.ts). */
const usageContract = loadOnFirstUse<typeof UsageContract>(import.meta.url, "../contracts/usage.ts", () => require("../contracts/usage.ts"));

export const usageRoutes = (runs: RunsRepo) =>
  new Elysia({ name: "usage" }).get("/api/usage", ({ query }): UsageResponse => ({ runs: runs.usage(parseBody(usageContract().UsageQuery, query)) }));
