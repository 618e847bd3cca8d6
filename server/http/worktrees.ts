/**
 * Isolated runs' worktrees and run groups: apply a run's worktree to the checkout, discard it, list a project's
 * worktrees, send one prompt to several agents and follow the group.
 */
import { Elysia } from "elysia";
import type { ProjectService } from "../projects/project-service.ts";
import type { RunGroups } from "../runs/run-groups.ts";
import type { WorktreeService } from "../worktrees/worktree-service.ts";
import { parseBody } from "./errors.ts";
import { worktreesContract } from "./request-schemas.ts";

export const worktreeRoutes = (worktrees: WorktreeService, groups: RunGroups, projects: ProjectService) =>
  new Elysia({ name: "worktrees" })
    .post("/api/runs/:id/apply", ({ params, body }) => worktrees.apply(params.id, parseBody(worktreesContract().ApplyRunRequest, withDefaultMode(body))))
    .post("/api/runs/:id/discard", ({ params }) => worktrees.discard(params.id))
    .get("/api/projects/:id/worktrees", async ({ params }) => ({ worktrees: await worktrees.list(projects.require(params.id)) }))
    .post("/api/run-groups", async ({ body, set }) => {
      const created = await groups.create(parseBody(worktreesContract().CreateRunGroupRequest, body));
      set.status = 202;
      return created;
    })
    .get("/api/run-groups/:id", ({ params }) => groups.get(params.id));

/** No body, or one without `mode`: the default, uncommitted changes. */
function withDefaultMode(body: unknown): unknown {
  if (body === undefined || body === null || body === "") return { mode: "uncommitted" };
  return typeof body === "object" && !Array.isArray(body) && !("mode" in body) ? { mode: "uncommitted", ...body } : body;
}
