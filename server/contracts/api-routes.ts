/**
 * Every HTTP API route in one table: method, path, who may call it, its query, request body, answers and error
 * statuses, each with the zod schema that route validates or returns. The OpenAPI document (`GET /api/openapi.json`,
 * server/http/openapi-document.ts) is generated from this table, and a test holds it to exactly the routes the app
 * mounts, so a route added without an entry here fails the suite.
 */
import { z } from "./zod.ts";
import { AgentListResponse, RescanRequest } from "./agents.ts";
import { AppConfigPatch, AppConfigResponse } from "./app-config.ts";
import { AnswerApprovalRequest, AnswerApprovalResponse } from "./approvals.ts";
import { ConnectionTestRequest, ConnectionTestResult } from "./connection-test.ts";
import { HealthResponse } from "./http.ts";
import { GrantMcpConsentRequest, McpConfigResponse, McpConsentResponse, McpQuery, PutMcpRequest } from "./mcp.ts";
import {
  Conversation,
  CreateConversationRequest,
  CreateProjectRequest,
  Message,
  MessageListQuery,
  Project,
  ProjectFile,
  UpdateConversationRequest,
  UpdateProjectRequest,
} from "./projects.ts";
import { RunChangesResponse, RevertRunResponse } from "./changes.ts";
import { FolderListResponse, ListFoldersQuery } from "./folders.ts";
import { CreateRunRequest, CreateRunResponse, ListRunsQuery, RunEvent, RunHistoryResponse, RunInputRequest, RunOutputQuery, RunSummary } from "./runs.ts";
import { CreateSessionRequest, CreateSessionResponse, FileLinkRequest, FileLinkResponse, SessionLinkResponse, SignOutEverywhereResponse } from "./session.ts";
import { DshSetupResponse } from "../dsh/setup-contract.ts";
import { ImportSkillRequest, ListSkillsQuery, SkillDetail, SkillSummary } from "./skills.ts";
import { UploadRequest, UploadResponse } from "./uploads.ts";
import { UsageQuery, UsageResponse } from "./usage.ts";
import { ApplyRunRequest, ApplyRunResponse, CreateRunGroupRequest, CreateRunGroupResponse, DiscardRunResponse, ProjectWorktreesResponse, RunGroupResponse } from "./worktrees.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * What a caller must send: nothing (`open`), `Authorization: Bearer` with the API token or a session secret
 * (`bearer`), or either that or a ticket from `POST /api/projects/:id/files/link` or `POST /api/runs/:id/output/link`
 * (`bearer-or-file-ticket`).
 */
export type RouteAuth = "open" | "bearer" | "bearer-or-file-ticket";

/** A successful answer: a JSON body, a server-sent event stream, or a file's bytes. */
export type RouteReply =
  | { status: number; json: z.ZodType }
  | { status: number; eventStream: { description: string; event: z.ZodType } }
  | { status: number; file: string };

export type ApiRoute = {
  method: HttpMethod;
  /** Elysia's form: `:name` marks a path parameter. */
  path: string;
  summary: string;
  auth: RouteAuth;
  query?: z.ZodObject;
  body?: { schema: z.ZodType; required: boolean };
  replies: RouteReply[];
  /** Error statuses this route answers with `{error:{code,message}}`, and the codes behind each. */
  errors: Record<number, string>;
};

/** `{ok: true}`: the answer of routes that only act. */
export const OkResponse = z.object({ ok: z.literal(true) });
/** A deleted conversation; `keptBranch`: its worktree's branch holds commits never applied, so it stays. */
const DeleteConversationResponse = OkResponse.extend({ keptBranch: z.string().optional() });
export const ProjectResponse = z.object({ project: Project });
export const ProjectListResponse = z.object({ projects: z.array(Project) });
export const ConversationResponse = z.object({ conversation: Conversation });
export const ConversationListResponse = z.object({ conversations: z.array(Conversation) });
export const MessageListResponse = z.object({ messages: z.array(Message) });
export const ProjectFileListResponse = z.object({ files: z.array(ProjectFile) });
export const RunListResponse = z.object({ runs: z.array(RunSummary) });
export const CancelRunResponse = z.object({
  ok: z.literal(true),
  run: RunSummary,
  /** The run had already ended; nothing was canceled. */
  alreadyEnded: z.boolean(),
});
export const SkillListResponse = z.object({ skills: z.array(SkillSummary) });
export const SkillDetailResponse = z.object({ skill: SkillDetail });
export const SkillResponse = z.object({ skill: SkillSummary });

/** `?stream=1` (or `true`) asks for server-sent events instead of one JSON answer. */
export const StreamQuery = z.object({ stream: z.enum(["1", "true"]).optional() });
/** `GET /api/runs/:id/events`: replay after this event id (the `Last-Event-ID` header wins). */
export const RunEventsQuery = z.object({ after: z.string().regex(/^\d+$/).optional() });
/** `GET /api/projects/:id/files/raw`: the project-relative file, and the ticket a file link carries. */
export const RawFileQuery = z.object({ path: z.string().min(1), ticket: z.string().optional() });

/** What an agent stream sends: one `agent` event per agent as its probes settle, then `done`. */
const AgentStreamEvent = z.object({ event: z.enum(["agent", "done", "error"]), data: z.unknown() });
const agentStream = {
  status: 200,
  eventStream: { description: "`agent` (an AgentInfo) per agent as its probes settle, then `done` (or `error`)", event: AgentStreamEvent },
} as const;

const BAD_BODY = "BAD_REQUEST, INVALID_JSON";
const NO_PROJECT = "PROJECT_NOT_FOUND";

export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: "GET", path: "/api/health", summary: "Is od up (and is its engine loaded)?", auth: "open",
    replies: [{ status: 200, json: HealthResponse }], errors: {},
  },
  {
    method: "POST", path: "/api/session", summary: "Trade a one-time launch code (the printed URL's token) for a session secret", auth: "open",
    body: { schema: CreateSessionRequest, required: true },
    replies: [{ status: 201, json: CreateSessionResponse }], errors: { 400: BAD_BODY, 401: "INVALID_LAUNCH_CODE" },
  },
  {
    method: "DELETE", path: "/api/session", summary: "Sign this session out", auth: "bearer",
    replies: [{ status: 200, json: OkResponse }], errors: {},
  },
  {
    method: "DELETE", path: "/api/sessions", summary: "Sign every browser out (sign out everywhere); the API token keeps working", auth: "bearer",
    replies: [{ status: 200, json: SignOutEverywhereResponse }], errors: {},
  },
  {
    method: "POST", path: "/api/session/links", summary: "A fresh one-time sign-in URL for another browser (or `od open`)", auth: "bearer",
    replies: [{ status: 200, json: SessionLinkResponse }], errors: {},
  },
  {
    method: "GET", path: "/api/app-config", summary: "Preferences", auth: "bearer",
    replies: [{ status: 200, json: AppConfigResponse }], errors: {},
  },
  {
    method: "PUT", path: "/api/app-config", summary: "Change preferences (per-agent maps merge; null removes an entry)", auth: "bearer",
    body: { schema: AppConfigPatch, required: true },
    replies: [{ status: 200, json: AppConfigResponse }], errors: { 400: BAD_BODY },
  },
  {
    method: "GET", path: "/api/agents", summary: "Detected agent CLIs (never starts a probe pass but the very first)", auth: "bearer",
    query: StreamQuery,
    replies: [{ status: 200, json: AgentListResponse }, agentStream], errors: {},
  },
  {
    method: "POST", path: "/api/agents/rescan", summary: "Probe every agent CLI again (or replay a pass at most maxAgeMs old)", auth: "bearer",
    query: StreamQuery, body: { schema: RescanRequest, required: false },
    replies: [{ status: 200, json: AgentListResponse }, agentStream], errors: { 400: BAD_BODY },
  },
  {
    method: "POST", path: "/api/agents/deepseek-harness/setup", summary: "Install od's DeepSeek Harness profile through the user's dsh", auth: "bearer",
    replies: [{ status: 200, json: DshSetupResponse }],
    errors: { 409: "AGENT_NOT_INSTALLED", 500: "BUNDLED_COMPANION_INVALID", 502: "COMPANION_INSTALL_FAILED, COMPANION_STILL_INCOMPATIBLE" },
  },
  {
    method: "POST", path: "/api/test/connection", summary: "Run an agent on a tiny prompt: does it work? (always 200)", auth: "bearer",
    body: { schema: ConnectionTestRequest, required: true },
    replies: [{ status: 200, json: ConnectionTestResult }], errors: { 400: BAD_BODY },
  },
  {
    method: "GET", path: "/api/projects", summary: "Every project", auth: "bearer",
    replies: [{ status: 200, json: ProjectListResponse }], errors: {},
  },
  {
    method: "POST", path: "/api/projects", summary: "Add a project: an existing folder, or a new one under the data dir", auth: "bearer",
    body: { schema: CreateProjectRequest, required: true },
    replies: [{ status: 201, json: ProjectResponse }], errors: { 400: `${BAD_BODY}, INVALID_PROJECT_PATH`, 409: "PROJECT_EXISTS" },
  },
  {
    method: "GET", path: "/api/projects/:id", summary: "One project", auth: "bearer",
    replies: [{ status: 200, json: ProjectResponse }], errors: { 404: NO_PROJECT },
  },
  {
    method: "PUT", path: "/api/projects/:id", summary: "Rename a project", auth: "bearer",
    body: { schema: UpdateProjectRequest, required: true },
    replies: [{ status: 200, json: ProjectResponse }], errors: { 400: BAD_BODY, 404: NO_PROJECT },
  },
  {
    method: "DELETE", path: "/api/projects/:id", summary: "Forget a project (its folder stays)", auth: "bearer",
    replies: [{ status: 200, json: OkResponse }], errors: { 404: NO_PROJECT },
  },
  {
    method: "GET", path: "/api/projects/:id/conversations", summary: "A project's conversations", auth: "bearer",
    replies: [{ status: 200, json: ConversationListResponse }], errors: { 404: NO_PROJECT },
  },
  {
    method: "POST", path: "/api/projects/:id/conversations", summary: "Start a conversation", auth: "bearer",
    body: { schema: CreateConversationRequest, required: false },
    replies: [{ status: 201, json: ConversationResponse }], errors: { 400: BAD_BODY, 404: NO_PROJECT },
  },
  {
    method: "PUT", path: "/api/conversations/:id", summary: "Rename a conversation", auth: "bearer",
    body: { schema: UpdateConversationRequest, required: true },
    replies: [{ status: 200, json: ConversationResponse }], errors: { 400: BAD_BODY, 404: "CONVERSATION_NOT_FOUND" },
  },
  {
    method: "DELETE", path: "/api/conversations/:id", summary: "Delete a conversation and its messages (and its worktree; a branch with unapplied commits is kept and named)", auth: "bearer",
    replies: [{ status: 200, json: DeleteConversationResponse }], errors: { 404: "CONVERSATION_NOT_FOUND", 409: "RUN_IN_PROGRESS", 502: "REMOTE_UNREACHABLE, WORKTREE_FAILED" },
  },
  {
    method: "GET", path: "/api/conversations/:id/messages", summary: "A conversation's messages (events=0: without each message's folded events)", auth: "bearer",
    query: MessageListQuery, replies: [{ status: 200, json: MessageListResponse }], errors: { 404: "CONVERSATION_NOT_FOUND" },
  },
  {
    method: "GET", path: "/api/projects/:id/files", summary: "The files in a project's folder", auth: "bearer",
    replies: [{ status: 200, json: ProjectFileListResponse }],
    errors: { 404: `${NO_PROJECT}, INVALID_PROJECT_PATH`, 502: "REMOTE_UNREACHABLE, REMOTE_TOOLS_MISSING", 504: "REMOTE_UNREACHABLE" },
  },
  {
    method: "POST", path: "/api/projects/:id/files/link", summary: "A ten-minute URL for one file (frames and images send no header)", auth: "bearer",
    body: { schema: FileLinkRequest, required: true },
    replies: [{ status: 200, json: FileLinkResponse }], errors: { 400: `${BAD_BODY}, INVALID_PROJECT_PATH`, 404: `${NO_PROJECT}, FILE_NOT_FOUND` },
  },
  {
    method: "GET", path: "/api/projects/:id/files/raw", summary: "One project file's bytes, served sandboxed", auth: "bearer-or-file-ticket",
    query: RawFileQuery,
    replies: [{ status: 200, file: "the file (at most 20 MB), typed by its extension" }],
    errors: { 400: "INVALID_PROJECT_PATH", 404: `${NO_PROJECT}, FILE_NOT_FOUND`, 413: "FILE_TOO_LARGE", 502: "REMOTE_UNREACHABLE", 504: "REMOTE_UNREACHABLE" },
  },
  {
    method: "POST", path: "/api/projects/:id/uploads", summary: "Attach an image (base64 in JSON) to a project", auth: "bearer",
    body: { schema: UploadRequest, required: true },
    replies: [{ status: 201, json: UploadResponse }],
    errors: { 400: `${BAD_BODY}, INVALID_BASE64, EMPTY_UPLOAD`, 404: NO_PROJECT, 413: "UPLOAD_TOO_LARGE", 415: "UNSUPPORTED_IMAGE_TYPE" },
  },
  {
    method: "POST", path: "/api/runs", summary: "Start a run (the project must exist: POST /api/projects first)", auth: "bearer",
    body: { schema: CreateRunRequest, required: true },
    replies: [{ status: 202, json: CreateRunResponse }],
    errors: {
      400: `${BAD_BODY}, UNKNOWN_AGENT, AGENT_UNAVAILABLE, NO_AGENT_AVAILABLE, INVALID_MODEL, UNKNOWN_MODEL, UNKNOWN_REASONING, PERMISSION_MODE_UNSUPPORTED, NOT_A_GIT_REPOSITORY, ISOLATION_MISMATCH`,
      404: `${NO_PROJECT}, CONVERSATION_NOT_FOUND`,
      409: "RUN_IN_PROGRESS, WORKTREE_DISCARDED",
      502: "REMOTE_UNREACHABLE, WORKTREE_FAILED",
      503: "UPSTREAM_UNAVAILABLE",
      504: "REMOTE_UNREACHABLE, REMOTE_TIMEOUT",
    },
  },
  {
    method: "POST", path: "/api/run-groups", summary: "Send one prompt to several agents at once, each run in a git worktree of its own from the same base", auth: "bearer",
    body: { schema: CreateRunGroupRequest, required: true },
    replies: [{ status: 202, json: CreateRunGroupResponse }],
    errors: {
      400: `${BAD_BODY}, UNKNOWN_AGENT, AGENT_UNAVAILABLE, NO_AGENT_AVAILABLE, INVALID_MODEL, UNKNOWN_MODEL, UNKNOWN_REASONING, PERMISSION_MODE_UNSUPPORTED, NOT_A_GIT_REPOSITORY`,
      404: NO_PROJECT,
      502: "REMOTE_UNREACHABLE, WORKTREE_FAILED",
      503: "UPSTREAM_UNAVAILABLE",
      504: "REMOTE_UNREACHABLE, REMOTE_TIMEOUT",
    },
  },
  {
    method: "GET", path: "/api/run-groups/:id", summary: "A run group: each run's status, duration, tokens and cost, and change stats", auth: "bearer",
    replies: [{ status: 200, json: RunGroupResponse }], errors: { 404: "NOT_FOUND" },
  },
  {
    method: "POST", path: "/api/runs/:id/apply", summary: "Bring an isolated run's worktree changes into the checkout: uncommitted (default), one commit, or a merge of its branch", auth: "bearer",
    body: { schema: ApplyRunRequest, required: false },
    replies: [{ status: 200, json: ApplyRunResponse }],
    errors: {
      400: `${BAD_BODY}, NOT_ISOLATED, GIT_TOO_OLD, INVALID_PROJECT_PATH`,
      404: "NOT_FOUND, PROJECT_NOT_FOUND",
      409: "APPLY_CONFLICT (with `paths`; the checkout is left as it was), NOTHING_TO_APPLY, RUN_IN_PROGRESS, WORKTREE_DISCARDED, WORKTREE_GONE",
      502: "REMOTE_UNREACHABLE, WORKTREE_FAILED",
      504: "REMOTE_TIMEOUT",
    },
  },
  {
    method: "POST", path: "/api/runs/:id/discard", summary: "Remove an isolated run's worktree and delete its branch", auth: "bearer",
    replies: [{ status: 200, json: DiscardRunResponse }],
    errors: { 400: "NOT_ISOLATED, INVALID_PROJECT_PATH", 404: "NOT_FOUND, PROJECT_NOT_FOUND", 409: "RUN_IN_PROGRESS, WORKTREE_DISCARDED", 502: "REMOTE_UNREACHABLE, WORKTREE_FAILED", 504: "REMOTE_TIMEOUT" },
  },
  {
    method: "GET", path: "/api/projects/:id/worktrees", summary: "The project's isolated conversations' worktrees not discarded, with their size on disk", auth: "bearer",
    replies: [{ status: 200, json: ProjectWorktreesResponse }], errors: { 404: NO_PROJECT },
  },
  {
    method: "GET", path: "/api/runs", summary: "Runs, filtered", auth: "bearer",
    query: ListRunsQuery,
    replies: [{ status: 200, json: RunListResponse }], errors: { 400: "BAD_REQUEST" },
  },
  {
    method: "GET", path: "/api/runs/:id", summary: "One run", auth: "bearer",
    replies: [{ status: 200, json: RunSummary }], errors: { 404: "NOT_FOUND" },
  },
  {
    method: "GET", path: "/api/runs/:id/events", summary: "A run's events as SSE; Last-Event-ID or ?after=N replays exactly what was missed", auth: "bearer",
    query: RunEventsQuery,
    replies: [{ status: 200, eventStream: { description: "one event per RunEvent: `event` is its type, `id` its id, `data` the RunEvent", event: RunEvent } }],
    errors: { 400: "BAD_REQUEST", 404: "NOT_FOUND" },
  },
  {
    method: "GET", path: "/api/runs/:id/history", summary: "A run's stored events as one JSON list (adjacent deltas coalesced), for showing a finished turn", auth: "bearer",
    replies: [{ status: 200, json: RunHistoryResponse }], errors: { 404: "NOT_FOUND" },
  },
  {
    method: "GET", path: "/api/runs/:id/output", summary: "A run's whole answer as text, when its stored message was cut (?offset=&limit= in bytes)", auth: "bearer-or-file-ticket",
    query: RunOutputQuery,
    replies: [{ status: 200, file: "the answer's text (x-od-total-bytes and x-od-next-offset say where the next page starts)" }],
    errors: { 400: "BAD_REQUEST", 404: "NOT_FOUND, OUTPUT_NOT_FOUND" },
  },
  {
    method: "POST", path: "/api/runs/:id/output/link", summary: "A ten-minute URL for a run's whole answer (a new tab sends no header)", auth: "bearer",
    replies: [{ status: 200, json: FileLinkResponse }], errors: { 404: "NOT_FOUND" },
  },
  {
    method: "GET", path: "/api/runs/:id/changes", summary: "The files a run created, modified or deleted, each with a unified diff", auth: "bearer",
    replies: [{ status: 200, json: RunChangesResponse }], errors: { 404: "NOT_FOUND" },
  },
  {
    method: "POST", path: "/api/runs/:id/revert", summary: "Put back every file a finished run changed as it was before the run (created files removed), only when each is still as the run left it", auth: "bearer",
    replies: [{ status: 200, json: RevertRunResponse }],
    errors: {
      404: "NOT_FOUND, PROJECT_NOT_FOUND",
      409: "REVERT_CONFLICT (with `paths`: files changed since the run, or with no whole diff; nothing is written), RUN_IN_PROGRESS, NO_RECORDED_CHANGES, WORKTREE_DISCARDED",
      502: "REVERT_FAILED (the machine refused a write)",
      504: "REVERT_FAILED (the machine did not answer)",
    },
  },
  {
    method: "GET", path: "/api/folders", summary: "The folders in a folder of this machine or another (?location=ssh://host or docker://c; ?path= absolute or ~; its home when absent)", auth: "bearer",
    query: ListFoldersQuery,
    replies: [{ status: 200, json: FolderListResponse }],
    errors: { 400: "BAD_REQUEST, INVALID_LOCATION, INVALID_FOLDER, FOLDER_NOT_READABLE", 404: "FOLDER_NOT_FOUND", 502: "REMOTE_UNREACHABLE", 504: "REMOTE_TIMEOUT" },
  },
  {
    method: "GET", path: "/api/usage", summary: "Each finished run's agent, model, tokens, cost (only when the CLI reported one) and duration, newest first", auth: "bearer",
    query: UsageQuery,
    replies: [{ status: 200, json: UsageResponse }], errors: { 400: "BAD_REQUEST" },
  },
  {
    method: "POST", path: "/api/runs/:id/cancel", summary: "Cancel a run (every process of it is stopped)", auth: "bearer",
    replies: [{ status: 200, json: CancelRunResponse }], errors: { 404: "NOT_FOUND" },
  },
  {
    method: "POST", path: "/api/runs/:id/approvals/:approvalId", summary: "Answer an approval request of a run in ask mode (allow_once, allow_run or deny with a message)", auth: "bearer",
    body: { schema: AnswerApprovalRequest, required: true },
    replies: [{ status: 200, json: AnswerApprovalResponse }],
    errors: { 400: BAD_BODY, 404: "NOT_FOUND, APPROVAL_NOT_FOUND", 409: "APPROVAL_ALREADY_ANSWERED" },
  },
  {
    method: "POST", path: "/api/runs/:id/input", summary: "Send a message to a running agent mid-turn", auth: "bearer",
    body: { schema: RunInputRequest, required: true },
    replies: [{ status: 200, json: OkResponse }], errors: { 400: BAD_BODY, 404: "NOT_FOUND", 409: "RUN_NOT_LIVE, INPUT_NOT_SUPPORTED" },
  },
  {
    method: "GET", path: "/api/skills", summary: "Skills (?projectId= adds the project's own, read where it lives)", auth: "bearer",
    query: ListSkillsQuery,
    replies: [{ status: 200, json: SkillListResponse }],
    errors: { 400: "BAD_REQUEST", 404: `${NO_PROJECT}, INVALID_PROJECT_PATH`, 502: "REMOTE_UNREACHABLE, REMOTE_READ_FAILED, REMOTE_TOOLS_MISSING", 504: "REMOTE_UNREACHABLE" },
  },
  {
    method: "GET", path: "/api/skills/:id", summary: "One skill with its body and files", auth: "bearer",
    query: ListSkillsQuery,
    replies: [{ status: 200, json: SkillDetailResponse }],
    errors: { 400: "BAD_REQUEST", 404: `SKILL_NOT_FOUND, ${NO_PROJECT}, INVALID_PROJECT_PATH`, 502: "REMOTE_UNREACHABLE, REMOTE_READ_FAILED, REMOTE_TOOLS_MISSING", 504: "REMOTE_UNREACHABLE" },
  },
  {
    method: "POST", path: "/api/skills/import", summary: "Write a user skill", auth: "bearer",
    body: { schema: ImportSkillRequest, required: true },
    replies: [{ status: 201, json: SkillResponse }], errors: { 400: BAD_BODY, 409: "SKILL_EXISTS" },
  },
  {
    method: "DELETE", path: "/api/skills/:id", summary: "Delete a user skill", auth: "bearer",
    replies: [{ status: 200, json: OkResponse }], errors: { 403: "SKILL_READ_ONLY", 404: "SKILL_NOT_FOUND" },
  },
  {
    method: "GET", path: "/api/mcp", summary: "External MCP servers (?projectId= for the project's list)", auth: "bearer",
    query: McpQuery,
    replies: [{ status: 200, json: McpConfigResponse }], errors: { 400: "BAD_REQUEST", 404: NO_PROJECT },
  },
  {
    method: "GET", path: "/api/projects/:id/mcp-consent", summary: "A project's own MCP servers and whether the person approved them", auth: "bearer",
    replies: [{ status: 200, json: McpConsentResponse }],
    errors: { 404: `${NO_PROJECT}, INVALID_PROJECT_PATH`, 502: "REMOTE_UNREACHABLE", 504: "REMOTE_UNREACHABLE" },
  },
  {
    method: "POST", path: "/api/projects/:id/mcp-consent", summary: "Approve a project's own MCP servers (the list with this hash)", auth: "bearer",
    body: { schema: GrantMcpConsentRequest, required: true },
    replies: [{ status: 200, json: McpConsentResponse }],
    // The list changed since the person saw it: they approve what they saw, never what is there now.
    errors: { 400: BAD_BODY, 404: `${NO_PROJECT}, INVALID_PROJECT_PATH`, 409: "MCP_CONFIG_CHANGED", 502: "REMOTE_UNREACHABLE", 504: "REMOTE_UNREACHABLE" },
  },
  {
    method: "DELETE", path: "/api/projects/:id/mcp-consent", summary: "Take back the approval of a project's own MCP servers", auth: "bearer",
    replies: [{ status: 200, json: McpConsentResponse }],
    errors: { 404: `${NO_PROJECT}, INVALID_PROJECT_PATH`, 502: "REMOTE_UNREACHABLE", 504: "REMOTE_UNREACHABLE" },
  },
  {
    method: "PUT", path: "/api/mcp", summary: "Replace the MCP server list (?projectId= for the project's list)", auth: "bearer",
    query: McpQuery, body: { schema: PutMcpRequest, required: true },
    replies: [{ status: 200, json: McpConfigResponse }],
    // A remote project's list is written where it lives.
    errors: { 400: BAD_BODY, 404: `${NO_PROJECT}, INVALID_PROJECT_PATH`, 502: "REMOTE_UNREACHABLE, REMOTE_WRITE_FAILED", 504: "REMOTE_UNREACHABLE" },
  },
  {
    method: "GET", path: "/api/openapi.json", summary: "This document: the API as OpenAPI 3.1", auth: "bearer",
    replies: [{ status: 200, json: z.object({ openapi: z.string() }).loose() }], errors: {},
  },
];
