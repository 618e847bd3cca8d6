/**
 * Skills: `GET /api/skills` (`?projectId=` adds the project's `.od/skills/`, read where the project lives for one on
 * another machine), `GET /api/skills/:id` (body + files), `POST /api/skills/import` (writes a user skill),
 * `DELETE /api/skills/:id` (user skills only; others → 403).
 */
import { Elysia } from "elysia";
import type { SkillSummary } from "../contracts/skills.ts";
import { placeOf } from "../machines/machine-of.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import { projectSkillsOn } from "../skills/project-skills-on.ts";
import { SkillError, type LoadedSkill, type ProjectSkills, type SkillLibrary } from "../skills/library.ts";
import { HttpError, parseBody } from "./errors.ts";
import { skillsContract } from "./request-schemas.ts";

/** Resolves a project id to its folder (404 when unknown). */
export type ProjectDirOf = (projectId: string) => string;

const STATUS: Record<SkillError["code"], number> = { SKILL_NOT_FOUND: 404, SKILL_READ_ONLY: 403, SKILL_EXISTS: 409 };

export const skillRoutes = (skills: SkillLibrary, projectDirOf: ProjectDirOf, remote: RemoteContext) => {
  /** The project's own skills, read on its machine. */
  const projectOf = async (query: unknown): Promise<ProjectSkills | undefined> => {
    const { projectId } = parseBody(skillsContract().ListSkillsQuery, query ?? {});
    return projectId ? projectSkillsOn(placeOf(projectDirOf(projectId), remote)) : undefined;
  };
  return new Elysia({ name: "skills" })
    .get("/api/skills", async ({ query }) => ({ skills: skills.list(await projectOf(query)).map(summary) }))
    .get("/api/skills/:id", async ({ params, query }) => {
      const skill = skills.detail(params.id, await projectOf(query));
      if (!skill) throw new HttpError(404, "SKILL_NOT_FOUND", `no skill '${params.id}'`);
      return { skill };
    })
    .post("/api/skills/import", ({ body, set }) => {
      const skill = typed(() => skills.importSkill(parseBody(skillsContract().ImportSkillRequest, body)));
      set.status = 201;
      return { skill: summary(skill) };
    })
    .delete("/api/skills/:id", ({ params }) => {
      typed(() => skills.deleteUserSkill(params.id));
      return { ok: true };
    });
};

function summary(skill: LoadedSkill): SkillSummary {
  const { body: _body, remoteFiles: _files, ...rest } = skill;
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
