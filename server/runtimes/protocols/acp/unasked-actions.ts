/**
 * ACP agents decide themselves which calls they ask about: some (codex-acp, kilo without a permission config) change
 * files or run commands in their default mode without any `session/request_permission`. In an `ask` or `read-only`
 * run od cannot stop such a call, but it must not pass for honoured: each write or command that completes without
 * having been asked about becomes a visible error, and the run fails at its end (never a silent bypass).
 */
import type { AgentEvent, AgentEventOf } from "../../../contracts/events.ts";
import { PROTOCOL_FAILURE_CODES } from "../failures.ts";

/** Tool kinds a person must be asked about before they happen. */
const ACTING_KINDS: ReadonlySet<string> = new Set(["file_write", "file_edit", "command"]);

export class UnaskedActions {
  private readonly askedIds = new Set<string>();
  private readonly uses = new Map<string, AgentEventOf<"tool_use">>();
  private readonly acted: string[] = [];

  /** The agent asked about this tool call. */
  asked(toolCallId: string | null): void {
    if (toolCallId !== null) this.askedIds.add(toolCallId);
  }

  /** Looks at mapped events; returns an error event for each acting call that completed unasked. */
  inspect(events: AgentEvent[]): AgentEvent[] {
    const added: AgentEvent[] = [];
    for (const event of events) {
      if (event.type === "tool_use") this.uses.set(event.id, event);
      if (event.type !== "tool_result" || event.isError || this.askedIds.has(event.toolUseId)) continue;
      const use = this.uses.get(event.toolUseId);
      if (!use || !ACTING_KINDS.has(use.kind)) continue;
      const call = `${use.name}${use.path ? ` ${use.path}` : ""}`;
      this.acted.push(call);
      const message = `the agent ran ${call} without asking first: it does not honour this run's permission mode`;
      added.push({ type: "error", message, code: PROTOCOL_FAILURE_CODES.permissionModeNotHonoured });
    }
    return added;
  }

  /** The calls that acted unasked, one line each. */
  unasked(): string[] {
    return [...this.acted];
  }
}
