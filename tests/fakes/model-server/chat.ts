/** OpenAI Chat Completions encoding: SSE chunks (reasoning_content, incremental tool_calls, usage, [DONE]), JSON, error body. */
import type { SseWriter } from "./http.ts";
import { fullText, pacedDeltas, tokenCount } from "./pacing.ts";
import type { AnswerPlan, Conversation } from "./types.ts";

let completionCounter = 0;
function completionId(): string {
  completionCounter += 1;
  return `chatcmpl-od${String(completionCounter).padStart(8, "0")}`;
}

function usage(conversation: Conversation, completion: number) {
  const prompt = 10 * Math.max(1, conversation.userTexts.length);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Stream `plan` as Chat Completions chunks. */
export async function streamChat(plan: AnswerPlan, conversation: Conversation, writer: SseWriter): Promise<void> {
  const id = completionId();
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    writer.send(undefined, { id, object: "chat.completion.chunk", created, model: conversation.model, choices, ...extra });
  const delta = (content: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: content, finish_reason: finish }]);

  await delta({ role: "assistant", content: "" });
  if (plan.pacing.kind === "hang") return writer.waitForHangUp();
  if (plan.thinking !== undefined) await delta({ reasoning_content: plan.thinking });
  let produced = "";
  for await (const text of pacedDeltas(plan, writer)) {
    produced += text;
    await delta({ content: text });
  }
  if (writer.closed) return;
  if (plan.pacing.kind === "midstream-error") {
    await writer.send(undefined, { error: { message: "od-fake: simulated mid-stream error", type: "server_error", code: "server_error" } });
    return;
  }
  for (const [index, call] of plan.toolCalls.entries()) {
    await delta({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] });
    const json = call.argumentsJson;
    const half = Math.ceil(json.length / 2);
    for (const piece of [json.slice(0, half), json.slice(half)]) {
      await delta({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  }
  await delta({}, plan.toolCalls.length > 0 ? "tool_calls" : "stop");
  if (conversation.includeUsage) await chunk([], { usage: usage(conversation, tokenCount(produced + (plan.thinking ?? ""))) });
  await writer.send(undefined, "[DONE]");
}

/** The non-streaming Chat Completions answer. */
export function chatJson(plan: AnswerPlan, conversation: Conversation): Record<string, unknown> {
  const text = fullText(plan);
  const message: Record<string, unknown> = { role: "assistant", content: text.length > 0 ? text : null };
  if (plan.thinking !== undefined) message.reasoning_content = plan.thinking;
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.argumentsJson },
    }));
  }
  return {
    id: completionId(),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: conversation.model,
    choices: [{ index: 0, message, finish_reason: plan.toolCalls.length > 0 ? "tool_calls" : "stop" }],
    usage: usage(conversation, tokenCount(text)),
  };
}

const ERROR_CODES: Record<number, { type: string; code: string }> = {
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "permission_denied" },
  404: { type: "invalid_request_error", code: "not_found" },
  429: { type: "rate_limit_error", code: "rate_limit_exceeded" },
};

/** OpenAI-style error body (Chat Completions and Responses alike). */
export function openAiError(status: number, message: string): Record<string, unknown> {
  const known = ERROR_CODES[status] ?? { type: status >= 500 ? "server_error" : "invalid_request_error", code: `http_${status}` };
  return { error: { message, type: known.type, param: null, code: known.code } };
}
