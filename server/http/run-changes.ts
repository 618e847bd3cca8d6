/**
 * `GET /api/runs/:id/changes`: the files a run created, changed or deleted in its project, each with its diff.
 * `POST /api/runs/:id/revert`: those files put back as they were before the run (server/runs/run-revert.ts).
 */
import { Elysia } from "elysia";
import type { RevertRunResponse, RunChangesResponse } from "../contracts/changes.ts";
import type { RunReverter } from "../runs/run-revert.ts";
import type { Store } from "../store/store.ts";
import { HttpError } from "./errors.ts";

export const runChangeRoutes = (store: Store, reverter: RunReverter) =>
  new Elysia({ name: "run-changes" })
    .get("/api/runs/:id/changes", ({ params }): RunChangesResponse => {
      if (!store.runs.get(params.id)) throw new HttpError(404, "NOT_FOUND", `no run ${params.id}`);
      return store.runChanges.list(params.id);
    })
    .post("/api/runs/:id/revert", ({ params }): Promise<RevertRunResponse> => reverter.revert(params.id));
