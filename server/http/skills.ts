/**
 * Skills: `GET /api/skills` (`?projectId=` adds the project's `.od/skills/`), `GET /api/skills/:id` (body + files),
 * `POST /api/skills/import` (writes a user skill), `DELETE /api/skills/:id` (user skills only; others → 403).
 */
import { Elysia } from "elysia";
import { ImportSkillRequest, ListSkillsQuery, type SkillSummary } from "../contracts/skills.ts";
import { SkillError, type LoadedSkill, type SkillLibrary } from "../skills/library.ts";
import { HttpError, parseBody } from "./errors.ts";

/** Resolves a project id to its folder (404 when unknown). */
export type ProjectDirOf = (projectId: string) => string;

const STATUS: Record<SkillError["code"], number> = { SKILL_NOT_FOUND: 404, SKILL_READ_ONLY: 403, SKILL_EXISTS: 409 };

export const skillRoutes = (skills: SkillLibrary, projectDirOf: ProjectDirOf) => {
  const projectDir = (query: unknown) => {
    const { projectId } = parseBody(ListSkillsQuery, query ?? {});
    return projectId ? projectDirOf(projectId) : undefined;
  };
  return new Elysia({ name: "skills" })
    .get("/api/skills", ({ query }) => ({ skills: skills.list(projectDir(query)).map(summary) }))
    .get("/api/skills/:id", ({ params, query }) => {
      const skill = skills.detail(params.id, projectDir(query));
      if (!skill) throw new HttpError(404, "SKILL_NOT_FOUND", `no skill '${params.id}'`);
      return { skill };
    })
    .post("/api/skills/import", ({ body, set }) => {
      const skill = typed(() => skills.importSkill(parseBody(ImportSkillRequest, body)));
      set.status = 201;
      return { skill: summary(skill) };
    })
    .delete("/api/skills/:id", ({ params }) => {
      typed(() => skills.deleteUserSkill(params.id));
      return { ok: true };
    });
};

function summary(skill: LoadedSkill): SkillSummary {
  const { body: _body, ...rest } = skill;
  return rest;
}

function typed<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof SkillError) throw new HttpError(STATUS[error.code], error.code, error.message);
    throw error;
  }
}
