/**
 * A person answers codex app-server's approval requests (a run in `ask` or `read-only` mode). In `ask` the thread
 * starts with approval policy `untrusted`, so codex asks before every command that is not known to be safe and
 * before every file change; in `read-only` it starts in codex's own read-only sandbox with policy `never`, so writes
 * fail without anyone being asked. Codex's answers carry no words: a deny is `decline` (the turn goes on).
 */
import type { AskForApproval } from "./generated/v2/AskForApproval";
import type { SandboxMode } from "./generated/v2/SandboxMode";
import { commandPrefixOf, type ApprovalAnswer, type ApprovalQuestion } from "../../approval-channel.ts";
import { isRecord, relativeToCwd } from "../../streams/tool-kind.ts";
import type { TransportOptions } from "../types.ts";

/** The approval requests codex sends: the v2 item requests and the legacy ones. */
export const APPROVAL_METHODS = ["item/commandExecution/requestApproval", "item/fileChange/requestApproval", "execCommandApproval", "applyPatchApproval"] as const;

export function isApprovalMethod(method: string): boolean {
  return (APPROVAL_METHODS as readonly string[]).includes(method);
}

/** The thread's approval policy and sandbox for the run's mode (`null`: od's headless defaults). */
export function threadPolicy(options: Pick<TransportOptions, "permissionMode">): { approvalPolicy: AskForApproval; sandbox?: SandboxMode } | null {
  if (options.permissionMode === "ask") return { approvalPolicy: "untrusted" };
  if (options.permissionMode === "read-only") return { approvalPolicy: "never", sandbox: "read-only" };
  return null;
}

/** `filesOf`: the files a v2 fileChange item changes, from its earlier notifications (its request names only the item). */
export function codexApprovalQuestion(method: string, params: unknown, cwd: string, filesOf: (itemId: string) => string[] = () => []): ApprovalQuestion {
  const args = isRecord(params) ? params : {};
  const isCommand = method === "item/commandExecution/requestApproval" || method === "execCommandApproval";
  if (isCommand) {
    const command = typeof args.command === "string" ? args.command : Array.isArray(args.command) ? args.command.join(" ") : "";
    const prefix = command ? commandPrefixOf(command) : undefined;
    return { toolName: "shell", kind: "command", title: command || (typeof args.reason === "string" ? args.reason : "a command"), input: params, ...(prefix ? { commandPrefix: prefix } : {}) };
  }
  const paths = isRecord(args.fileChanges) ? Object.keys(args.fileChanges) : typeof args.itemId === "string" ? filesOf(args.itemId) : [];
  const reason = typeof args.reason === "string" ? args.reason : undefined;
  const title = paths.length ? paths.map((path) => relativeToCwd(path, cwd)).join(", ") : (reason ?? "a file change");
  return { toolName: "apply_patch", kind: "edit", title, input: params };
}

/** The response codex expects for `method`, from the person's answer. */
export function codexApprovalResponse(method: string, answer: ApprovalAnswer): unknown {
  const legacy = method === "execCommandApproval" || method === "applyPatchApproval";
  if (legacy) return { decision: answer.decision === "deny" ? "denied" : answer.decision === "allow_run" ? "approved_for_session" : "approved" };
  return { decision: answer.decision === "deny" ? "decline" : answer.decision === "allow_run" ? "acceptForSession" : "accept" };
}
