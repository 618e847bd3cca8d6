/**
 * The contracts' request schemas as the routes take them: each module built when a request first validates with it,
 * so an idle daemon builds none (zod is not even evaluated; tests/architecture/daemon-start-imports.test.ts). One
 * accessor per contract for every route module, so a contract two route modules use is loaded and kept once.
 */
import type * as AgentsContract from "../contracts/agents.ts";
import type * as AppConfigContract from "../contracts/app-config.ts";
import type * as ApprovalsContract from "../contracts/approvals.ts";
import type * as ConnectionTestContract from "../contracts/connection-test.ts";
import type * as FoldersContract from "../contracts/folders.ts";
import type * as McpContract from "../contracts/mcp.ts";
import type * as ProjectsContract from "../contracts/projects.ts";
import type * as RunsContract from "../contracts/runs.ts";
import type * as SessionContract from "../contracts/session.ts";
import type * as SkillsContract from "../contracts/skills.ts";
import type * as UploadsContract from "../contracts/uploads.ts";
import type * as UsageContract from "../contracts/usage.ts";
import type * as WorktreesContract from "../contracts/worktrees.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";

export const agentsContract = loadOnFirstUse<typeof AgentsContract>(import.meta.url, "../contracts/agents.ts", () => require("../contracts/agents.ts"));
export const appConfigContract = loadOnFirstUse<typeof AppConfigContract>(import.meta.url, "../contracts/app-config.ts", () => require("../contracts/app-config.ts"));
export const approvalsContract = loadOnFirstUse<typeof ApprovalsContract>(import.meta.url, "../contracts/approvals.ts", () => require("../contracts/approvals.ts"));
export const connectionTestContract = loadOnFirstUse<typeof ConnectionTestContract>(import.meta.url, "../contracts/connection-test.ts", () => require("../contracts/connection-test.ts"));
export const foldersContract = loadOnFirstUse<typeof FoldersContract>(import.meta.url, "../contracts/folders.ts", () => require("../contracts/folders.ts"));
export const mcpContract = loadOnFirstUse<typeof McpContract>(import.meta.url, "../contracts/mcp.ts", () => require("../contracts/mcp.ts"));
export const projectsContract = loadOnFirstUse<typeof ProjectsContract>(import.meta.url, "../contracts/projects.ts", () => require("../contracts/projects.ts"));
export const runsContract = loadOnFirstUse<typeof RunsContract>(import.meta.url, "../contracts/runs.ts", () => require("../contracts/runs.ts"));
export const sessionContract = loadOnFirstUse<typeof SessionContract>(import.meta.url, "../contracts/session.ts", () => require("../contracts/session.ts"));
export const skillsContract = loadOnFirstUse<typeof SkillsContract>(import.meta.url, "../contracts/skills.ts", () => require("../contracts/skills.ts"));
export const uploadsContract = loadOnFirstUse<typeof UploadsContract>(import.meta.url, "../contracts/uploads.ts", () => require("../contracts/uploads.ts"));
export const usageContract = loadOnFirstUse<typeof UsageContract>(import.meta.url, "../contracts/usage.ts", () => require("../contracts/usage.ts"));
export const worktreesContract = loadOnFirstUse<typeof WorktreesContract>(import.meta.url, "../contracts/worktrees.ts", () => require("../contracts/worktrees.ts"));
