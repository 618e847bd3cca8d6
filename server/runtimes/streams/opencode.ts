/**
 * `json-event-stream` / `opencode` (and `mimo`, an opencode derivative with the same `run --format json` events):
 * `step_start`, `text` (a whole part), `reasoning`, `tool_use` (one record per finished call), `step_finish` (tokens
 * and cost), `error`. Every record carries `sessionID`; the first one seen is reported as the resume handle.
 */
import { perEvent } from "../../platform/jit-tiers.ts";
import type { AgentEvent } from "../../contracts/events.ts";
import { jsonRecordParser, rawRecord, type JsonRecord } from "./json-lines.ts";
import { toolUseEvent } from "./tool-kind.ts";
import type { ParserContext, StreamParser } from "./types.ts";
import { compact, num, obj, str, stringifyContent } from "./wire.ts";

const FINISHED_OK = new Set(["completed"]);
const FINISHED_ERROR = new Set(["error", "failed"]);

/** Creates a parser for one `opencode run --format json` run. */
export function createOpencodeParser(ctx: ParserContext = {}): StreamParser {
  const cwd = ctx.cwd;
  const emittedTools = new Set<string>();
  const finishedTools = new Set<string>();
  let sessionId: string | undefined;

  function toolUse(part: JsonRecord): AgentEvent[] {
    const id = str(part.callID) ?? str(part.id) ?? "tool";
    const name = str(part.tool) ?? "tool";
    const state = obj(part.state) ?? {};
    const status = str(state.status) ?? "";
    const out: AgentEvent[] = [];
    if (!emittedTools.has(id)) {
      emittedTools.add(id);
      out.push(toolUseEvent(id, name, state.input ?? {}, cwd));
    }
    const finished = FINISHED_OK.has(status) || FINISHED_ERROR.has(status);
    if (!finished || finishedTools.has(id)) return out;
    finishedTools.add(id);
    const metadata = obj(state.metadata) ?? {};
    const exit = num(metadata.exit) ?? num(state.exit);
    const error = state.error;
    const output = stringifyContent(state.output ?? metadata.output ?? "");
    const isError =
      FINISHED_ERROR.has(status) || (error !== undefined && error !== null && error !== "") || (exit !== undefined && exit !== 0) || /ErrorRecord|CategoryInfo\s*:/.test(output);
    const content = output !== "" ? output : error !== undefined ? stringifyContent(error) : "";
    const result: AgentEvent = { type: "tool_result", toolUseId: id, content };
    if (isError) result.isError = true;
    out.push(result);
    return out;
  }

  perEvent(toolUse);
  return jsonRecordParser({
    record(rec, line) {
      const part = obj(rec.part) ?? {};
      const out: AgentEvent[] = [];
      const lineSession = str(rec.sessionID) ?? str(part.sessionID);
      const newSession = lineSession !== undefined && sessionId === undefined;
      if (newSession) sessionId = lineSession;
      if (rec.type === "step_start") {
        out.push(compact({ type: "status", label: "running", sessionId: newSession ? lineSession : undefined }));
        return out;
      }
      if (newSession) out.push({ type: "status", label: "running", sessionId: lineSession });
      switch (rec.type) {
        case "text": {
          const text = str(part.text) ?? "";
          if (text !== "") out.push({ type: "text_delta", delta: text });
          return out;
        }
        case "reasoning": {
          const text = str(part.text) ?? "";
          if (text !== "") out.push({ type: "thinking_start" }, { type: "thinking_delta", delta: text });
          return out;
        }
        case "tool_use":
          out.push(...toolUse(part));
          return out;
        case "step_finish": {
          const tokens = obj(part.tokens) ?? {};
          const cache = obj(tokens.cache) ?? {};
          const usage = compact({
            input_tokens: num(tokens.input),
            output_tokens: num(tokens.output),
            thought_tokens: num(tokens.reasoning),
            cached_read_tokens: num(cache.read),
            cached_write_tokens: num(cache.write),
          });
          out.push(compact({ type: "usage", usage: Object.keys(usage).length > 0 ? usage : undefined, costUsd: num(part.cost), stopReason: str(part.reason) }));
          return out;
        }
        case "error": {
          const error = obj(rec.error) ?? {};
          const data = obj(error.data) ?? {};
          const message = str(data.message) ?? str(error.message) ?? str(rec.message) ?? "opencode error";
          out.push(compact({ type: "error", message, code: str(error.name), raw: rec }));
          return out;
        }
        default:
          out.push(rawRecord(rec, line));
          return out;
      }
    },
    end() {
      return [];
    },
  });
}
