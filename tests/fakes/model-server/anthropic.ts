/** Anthropic Messages encoding: SSE stream, JSON answer, error body. */
import type { SseWriter } from "./http.ts";
import { fullText, pacedDeltas, tokenCount } from "./pacing.ts";
import type { AnswerPlan, Conversation } from "./types.ts";

const SIGNATURE = "b2QtZmFrZS1zaWduYXR1cmU=";

let messageCounter = 0;
function messageId(): string {
  messageCounter += 1;
  return `msg_od${String(messageCounter).padStart(8, "0")}`;
}

function usage(conversation: Conversation, output: number) {
  return {
    input_tokens: 10 * Math.max(1, conversation.userTexts.length),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: output,
  };
}

function toolInput(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return {};
  }
}

/** Stream `plan` as Anthropic SSE events. */
export async function streamAnthropic(plan: AnswerPlan, conversation: Conversation, writer: SseWriter): Promise<void> {
  const id = messageId();
  const send = (type: string, data: Record<string, unknown>) => writer.send(type, { type, ...data });
  await send("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model: conversation.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(conversation, 1),
    },
  });
  if (plan.pacing.kind === "hang") return writer.waitForHangUp();
  let index = 0;
  let produced = "";
  if (plan.thinking !== undefined) {
    await send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    await send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: plan.thinking } });
    await send("content_block_delta", { index, delta: { type: "signature_delta", signature: SIGNATURE } });
    await send("content_block_stop", { index });
    index += 1;
  }
  let textOpen = false;
  for await (const delta of pacedDeltas(plan, writer)) {
    if (!textOpen) {
      await send("content_block_start", { index, content_block: { type: "text", text: "" } });
      textOpen = true;
    }
    produced += delta;
    await send("content_block_delta", { index, delta: { type: "text_delta", text: delta } });
  }
  if (writer.closed) return;
  if (plan.pacing.kind === "midstream-error") {
    await send("error", { error: { type: "overloaded_error", message: "od-fake: simulated mid-stream error" } });
    return;
  }
  if (textOpen) {
    await send("content_block_stop", { index });
    index += 1;
  }
  for (const call of plan.toolCalls) {
    await send("content_block_start", { index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } });
    const json = call.argumentsJson;
    const half = Math.ceil(json.length / 2);
    for (const piece of [json.slice(0, half), json.slice(half)]) {
      await send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    await send("content_block_stop", { index });
    index += 1;
  }
  const stopReason = plan.toolCalls.length > 0 ? "tool_use" : "end_turn";
  await send("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: tokenCount(produced + (plan.thinking ?? "")) },
  });
  await send("message_stop", {});
}

/** The non-streaming Messages answer. */
export function anthropicJson(plan: AnswerPlan, conversation: Conversation): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (plan.thinking !== undefined) content.push({ type: "thinking", thinking: plan.thinking, signature: SIGNATURE });
  const text = fullText(plan);
  if (text) content.push({ type: "text", text });
  for (const call of plan.toolCalls) content.push({ type: "tool_use", id: call.id, name: call.name, input: toolInput(call.argumentsJson) });
  return {
    id: messageId(),
    type: "message",
    role: "assistant",
    model: conversation.model,
    content,
    stop_reason: plan.toolCalls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: usage(conversation, tokenCount(text)),
  };
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

export function anthropicError(status: number, message: string): Record<string, unknown> {
  return { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } };
}
