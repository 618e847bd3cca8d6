/** `GET /api/runs/:id/changes`: the files a run created, changed or deleted in its project, each with its diff. */
import { Elysia } from "elysia";
import type { RunChangesResponse } from "../contracts/changes.ts";
import type { Store } from "../store/store.ts";
import { HttpError } from "./errors.ts";

export const runChangeRoutes = (store: Store) =>
  new Elysia({ name: "run-changes" }).get("/api/runs/:id/changes", ({ params }): RunChangesResponse => {
    if (!store.runs.get(params.id)) throw new HttpError(404, "NOT_FOUND", `no run ${params.id}`);
    return store.runChanges.list(params.id);
  });
