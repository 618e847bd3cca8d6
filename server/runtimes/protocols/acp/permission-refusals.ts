/**
 * Tool calls the agent refused after od approved them. An agent can turn down the option od picked: gemini in an
 * untrusted folder throws "Cannot enable privileged approval modes in an untrusted folder." on "allow always",
 * fails the tool, and still ends the turn with `end_turn`, so the run would look like a success with no file.
 * This ledger remembers which option each tool call got, spots a failed call whose text is such a refusal, and
 * turns it into a visible error event. A refused privileged answer makes later requests prefer allow-once; a
 * refused call that no later successful call of the same tool and path made good fails the run at the end.
 */
import type { AgentEvent, AgentEventOf } from "../../../contracts/events.ts";
import { PROTOCOL_FAILURE_CODES } from "../failures.ts";
import { PRIVILEGED_KINDS, type PermissionChoice } from "./permission.ts";

/**
 * What an agent says when it refuses an approved permission answer: gemini and its forks (qwen) in an untrusted
 * folder; opencode when a call was rejected. Matched only on calls od answered, never on ordinary tool failures.
 */
const REFUSAL = /cannot enable privileged approval modes?|in an untrusted folder|rejected permission to use/i;

/** Gemini CLI (and its forks) in a folder it was not told to trust, and the one step that tells it (its documented trust dialog). */
const UNTRUSTED = /untrusted folder/i;
const TRUST_STEP =
  ". To let it act here: run the agent once in this project's folder and choose \"Trust folder\" (it keeps that in its trustedFolders.json, e.g. ~/.gemini/trustedFolders.json), then run again";

type RefusedCall = { name: string; kind: string; path?: string; reason: string };

export class PermissionRefusals {
  private readonly answers = new Map<string, PermissionChoice>();
  private readonly uses = new Map<string, AgentEventOf<"tool_use">>();
  private outstanding: RefusedCall[] = [];
  /** The agent refused an allow-always / approve-for-session answer; answer allow-once from now on. */
  privilegedRefused = false;

  /** Records the option od selected for a tool call. */
  answered(toolCallId: string | null, choice: PermissionChoice): void {
    if (toolCallId !== null) this.answers.set(toolCallId, choice);
  }

  /** Looks at mapped events; returns the error events to add for calls the agent refused. */
  inspect(events: AgentEvent[]): AgentEvent[] {
    const added: AgentEvent[] = [];
    for (const event of events) {
      if (event.type === "tool_use") this.uses.set(event.id, event);
      if (event.type !== "tool_result") continue;
      const use = this.uses.get(event.toolUseId);
      if (!event.isError) {
        if (use) this.outstanding = this.outstanding.filter((call) => !sameWork(call, use));
        continue;
      }
      const choice = this.answers.get(event.toolUseId);
      if (!choice || !REFUSAL.test(event.content)) continue;
      added.push(this.refused(event, choice, use));
    }
    return added;
  }

  /** Refused calls never made good, one line each; empty when every refusal was followed by a success. */
  unresolved(): string[] {
    return this.outstanding.map((call) => `${call.name}${call.path ? ` ${call.path}` : ""} (${call.reason})`);
  }

  private refused(result: AgentEventOf<"tool_result">, choice: PermissionChoice, use: AgentEventOf<"tool_use"> | undefined): AgentEvent {
    const reason = result.content.trim().split("\n")[0]?.slice(0, 300) ?? "";
    const name = use?.name ?? "tool";
    this.outstanding.push({ name, kind: use?.kind ?? "other", ...(use?.path ? { path: use.path } : {}), reason });
    const privileged = PRIVILEGED_KINDS.has(choice.kind);
    if (privileged) this.privilegedRefused = true;
    const next = privileged ? "; od answers allow-once from now on" : "";
    return {
      type: "error",
      code: PROTOCOL_FAILURE_CODES.permissionRefused,
      message: `the agent refused od's "${choice.optionId}" permission answer for ${name}: ${reason}${next}${UNTRUSTED.test(reason) ? TRUST_STEP : ""}`,
    };
  }
}

/** A later successful call does the refused call's work: same tool name and kind, and same path when it had one. */
function sameWork(call: RefusedCall, use: AgentEventOf<"tool_use">): boolean {
  return use.name === call.name && use.kind === call.kind && use.path === call.path;
}
