/** Usage: what finished runs reported using (tokens, cost, duration), per run, for the usage view. Read-only. */
import { Elysia } from "elysia";
import type { UsageResponse } from "../contracts/usage.ts";
import type { RunsRepo } from "../store/runs-repo.ts";
import { parseBody } from "./errors.ts";
import { usageContract } from "./request-schemas.ts";

export const usageRoutes = (runs: RunsRepo) =>
  new Elysia({ name: "usage" }).get("/api/usage", ({ query }): UsageResponse => ({ runs: runs.usage(parseBody(usageContract().UsageQuery, query)) }));
