/**
 * OpenAI Responses encoding: numbered SSE events for reasoning, message, function and custom (freeform) tool
 * call items, ending in `response.completed` with usage (codex requires it) or `response.failed`.
 */
import type { SseWriter } from "./http.ts";
import { fullText, pacedDeltas, tokenCount } from "./pacing.ts";
import type { AnswerPlan, Conversation, PlannedToolCall } from "./types.ts";

let responseCounter = 0;
function nextId(prefix: string): string {
  responseCounter += 1;
  return `${prefix}_od${String(responseCounter).padStart(8, "0")}`;
}

function usage(conversation: Conversation, output: number) {
  const input = 10 * Math.max(1, conversation.userTexts.length);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

function responseObject(id: string, conversation: Conversation, status: string, output: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: conversation.model,
    output,
    ...extra,
  };
}

function reasoningItem(id: string, text: string) {
  return { id, type: "reasoning", summary: [{ type: "summary_text", text }], encrypted_content: null };
}

function messageItem(id: string, text: string, status: string) {
  return { id, type: "message", status, role: "assistant", content: text ? [{ type: "output_text", text, annotations: [] }] : [] };
}

function toolItem(id: string, call: PlannedToolCall, status: string, body: string) {
  const namespace = call.namespace ? { namespace: call.namespace } : {};
  return call.kind === "custom"
    ? { id, type: "custom_tool_call", status, call_id: call.id, name: call.name, input: body, ...namespace }
    : { id, type: "function_call", status, call_id: call.id, name: call.name, arguments: body, ...namespace };
}

/** Stream `plan` as Responses events. */
export async function streamResponses(plan: AnswerPlan, conversation: Conversation, writer: SseWriter): Promise<void> {
  const id = nextId("resp");
  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>) => writer.send(type, { type, sequence_number: sequence++, ...data });
  const output: unknown[] = [];
  await send("response.created", { response: responseObject(id, conversation, "in_progress", []) });
  await send("response.in_progress", { response: responseObject(id, conversation, "in_progress", []) });
  if (plan.pacing.kind === "hang") return writer.waitForHangUp();

  if (plan.thinking !== undefined) {
    const itemId = nextId("rs");
    const output_index = output.length;
    await send("response.output_item.added", { output_index, item: { id: itemId, type: "reasoning", summary: [] } });
    const part = { item_id: itemId, output_index, summary_index: 0 };
    await send("response.reasoning_summary_part.added", { ...part, part: { type: "summary_text", text: "" } });
    await send("response.reasoning_summary_text.delta", { ...part, delta: plan.thinking });
    await send("response.reasoning_summary_text.done", { ...part, text: plan.thinking });
    await send("response.reasoning_summary_part.done", { ...part, part: { type: "summary_text", text: plan.thinking } });
    const item = reasoningItem(itemId, plan.thinking);
    output.push(item);
    await send("response.output_item.done", { output_index, item });
  }

  let produced = "";
  let messageId: string | undefined;
  const messageIndex = output.length;
  for await (const delta of pacedDeltas(plan, writer)) {
    if (!messageId) {
      messageId = nextId("msg");
      await send("response.output_item.added", { output_index: messageIndex, item: messageItem(messageId, "", "in_progress") });
      await send("response.content_part.added", {
        item_id: messageId,
        output_index: messageIndex,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      });
    }
    produced += delta;
    await send("response.output_text.delta", { item_id: messageId, output_index: messageIndex, content_index: 0, delta, logprobs: [] });
  }
  if (writer.closed) return;
  if (plan.pacing.kind === "midstream-error") {
    const error = { code: "server_error", message: "od-fake: simulated mid-stream error" };
    await send("response.failed", { response: responseObject(id, conversation, "failed", output, { error }) });
    return;
  }
  if (messageId) {
    const where = { item_id: messageId, output_index: messageIndex, content_index: 0 };
    await send("response.output_text.done", { ...where, text: produced, logprobs: [] });
    await send("response.content_part.done", { ...where, part: { type: "output_text", text: produced, annotations: [] } });
    const item = messageItem(messageId, produced, "completed");
    output.push(item);
    await send("response.output_item.done", { output_index: messageIndex, item });
  }

  for (const call of plan.toolCalls) {
    const itemId = nextId(call.kind === "custom" ? "ctc" : "fc");
    const output_index = output.length;
    const body = call.kind === "custom" ? call.input : call.argumentsJson;
    await send("response.output_item.added", { output_index, item: toolItem(itemId, call, "in_progress", "") });
    const half = Math.ceil(body.length / 2);
    const kind = call.kind === "custom" ? "custom_tool_call_input" : "function_call_arguments";
    for (const delta of [body.slice(0, half), body.slice(half)]) await send(`response.${kind}.delta`, { item_id: itemId, output_index, delta });
    await send(`response.${kind}.done`, { item_id: itemId, output_index, ...(call.kind === "custom" ? { input: body } : { arguments: body }) });
    const item = toolItem(itemId, call, "completed", body);
    output.push(item);
    await send("response.output_item.done", { output_index, item });
  }
  const tokens = tokenCount(produced + (plan.thinking ?? ""));
  await send("response.completed", { response: responseObject(id, conversation, "completed", output, { usage: usage(conversation, tokens) }) });
}

/** The non-streaming Responses answer. */
export function responsesJson(plan: AnswerPlan, conversation: Conversation): Record<string, unknown> {
  const output: unknown[] = [];
  if (plan.thinking !== undefined) output.push(reasoningItem(nextId("rs"), plan.thinking));
  const text = fullText(plan);
  if (text) output.push(messageItem(nextId("msg"), text, "completed"));
  for (const call of plan.toolCalls) {
    output.push(toolItem(nextId(call.kind === "custom" ? "ctc" : "fc"), call, "completed", call.kind === "custom" ? call.input : call.argumentsJson));
  }
  return responseObject(nextId("resp"), conversation, "completed", output, { usage: usage(conversation, tokenCount(text)), output_text: text });
}
