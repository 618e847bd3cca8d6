/** Projects, conversations, messages and project files. */
import type { FileLinkResponse } from "../contracts/session.ts";
import type { Credentials } from "./credentials.ts";
import { extname } from "node:path";
import { Elysia } from "elysia";
import type { ProjectService } from "../projects/project-service.ts";
import type { DiskSpace } from "../store/disk-space.ts";
import type { Store } from "../store/store.ts";
import type { WorktreeService } from "../worktrees/worktree-service.ts";
import { jsonPiecesResponse } from "./json-stream.ts";
import { HttpError, parseBody } from "./errors.ts";
import { projectsContract, sessionContract } from "./request-schemas.ts";

const MAX_RAW_BYTES = 20 * 1024 * 1024;

const PREVIEW_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".css": "text/css; charset=utf-8",
  ".js": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/**
 * Agent-made files are untrusted: even opened in a new tab they run sandboxed, in an opaque origin that can
 * neither read the page's session nor pass the guard's Origin and Sec-Fetch-Site checks.
 */
const UNTRUSTED_FILE_HEADERS = {
  "content-security-policy": "sandbox allow-scripts",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

export const projectRoutes = (store: Store, projects: ProjectService, credentials: Credentials, worktrees: WorktreeService, space: DiskSpace) =>
  new Elysia({ name: "projects" })
    .get("/api/projects", () => ({ projects: store.projects.list() }))
    .post("/api/projects", async ({ body, set }) => {
      const request = parseBody(projectsContract().CreateProjectRequest, body);
      const project = await projects.add(request.name, request.path);
      set.status = 201;
      return { project };
    })
    .get("/api/projects/:id", ({ params }) => ({ project: projects.require(params.id) }))
    .put("/api/projects/:id", ({ params, body }) => {
      projects.require(params.id);
      return { project: store.projects.rename(params.id, parseBody(projectsContract().UpdateProjectRequest, body).name)! };
    })
    .delete("/api/projects/:id", async ({ params }) => {
      // Forget the project in od; the folder and its files stay where they are (its runs' worktrees go).
      projects.require(params.id);
      await worktrees.removeForProject(params.id);
      store.projects.delete(params.id);
      return { ok: true };
    })
    .get("/api/projects/:id/conversations", ({ params }) => {
      projects.require(params.id);
      return { conversations: store.conversations.listForProject(params.id) };
    })
    .post("/api/projects/:id/conversations", ({ params, body, set }) => {
      projects.require(params.id);
      const request = parseBody(projectsContract().CreateConversationRequest, body ?? {});
      set.status = 201;
      return { conversation: store.conversations.create(params.id, request.title ?? "New conversation") };
    })
    .put("/api/conversations/:id", ({ params, body }) => {
      requireConversation(store, params.id);
      return { conversation: store.conversations.rename(params.id, parseBody(projectsContract().UpdateConversationRequest, body).title)! };
    })
    .delete("/api/conversations/:id", async ({ params }) => {
      requireConversation(store, params.id);
      // Its worktree goes with it; a branch with commits of the agent's that were never applied stays.
      const { keptBranch } = await worktrees.removeForConversation(params.id);
      store.conversations.delete(params.id);
      return { ok: true, ...(keptBranch ? { keptBranch } : {}) };
    })
    .get("/api/conversations/:id/messages", ({ params, query }) => {
      const { events } = parseBody(projectsContract().MessageListQuery, query);
      requireConversation(store, params.id);
      // Written as stored, a piece at a time: a long answer's fold is never parsed and serialized again. Answers' texts
      // are kept at their first read: the page lists a conversation at every open and at the end of each of its runs.
      return jsonPiecesResponse(store.messages.listJson(params.id, { events: events !== "0" && events !== "false", keepTexts: space }));
    })
    .get("/api/projects/:id/files", async ({ params }) => ({ files: await projects.files(projects.require(params.id)) }))
    .post("/api/projects/:id/files/link", ({ params, body }): FileLinkResponse => {
      // A capability for GETs of this one file for a few minutes: frames and images cannot send a bearer header.
      const { path } = parseBody(sessionContract().FileLinkRequest, body);
      projects.readableFile(projects.require(params.id), path);
      const pathname = `/api/projects/${encodeURIComponent(params.id)}/files/raw`;
      const { ticket, expiresAt } = credentials.issueFileTicket({ pathname, path });
      return { url: `${pathname}?path=${encodeURIComponent(path)}&ticket=${ticket}`, expiresAt };
    })
    .get("/api/projects/:id/files/raw", async ({ params, query }) => {
      const relPath = typeof query.path === "string" ? query.path : "";
      const type = PREVIEW_TYPES[extname(relPath).toLowerCase()] ?? "text/plain; charset=utf-8";
      // Read on the project's machine, under the same rules wherever that is.
      const bytes = await projects.readFile(projects.require(params.id), relPath, MAX_RAW_BYTES);
      return new Response(bytes, { headers: { "content-type": type, ...UNTRUSTED_FILE_HEADERS } });
    });

export function requireConversation(store: Store, id: string) {
  const conversation = store.conversations.get(id);
  if (!conversation) throw new HttpError(404, "CONVERSATION_NOT_FOUND", `no conversation ${id}`);
  return conversation;
}
