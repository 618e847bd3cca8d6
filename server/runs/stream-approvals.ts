/**
 * Answers Claude Code's `can_use_tool` control requests of a stream-json run: each one is asked of the run's
 * approvals, and the answer is written back on the agent's stdin. The parser sees these lines as `raw` records.
 */
import type { AskApproval } from "../runtimes/approval-channel.ts";
import { questionForTool } from "../runtimes/approval-channel.ts";
import { controlResponseLine, isControlResponse, parseCanUseTool } from "../runtimes/streams/claude-control.ts";

/** Returns a line handler: true when the line was a permission question (now being answered), false otherwise. */
export function claudeControlAnswerer(ask: AskApproval, write: (line: string) => Promise<unknown>, cwd?: string): (line: string) => boolean {
  return (line) => {
    // The CLI's answer to od's own `initialize` request: protocol, not output.
    if (isControlResponse(line)) return true;
    const request = parseCanUseTool(line);
    if (!request) return false;
    void ask(questionForTool(request.toolName, request.input, cwd))
      .then((answer) => write(controlResponseLine(request, answer)))
      .catch(() => undefined);
    return true;
  };
}
