import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { startFakeModelServer, type FakeModelServer } from "./model-server.ts";
import { parseLastDirective, stripInjectedWrappers } from "./model-server/directive.ts";

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModelServer({ slowIntervalMs: 20, longDeltas: 30 });
});
afterAll(() => fake.stop());
beforeEach(() => fake.clearRequests());

type Frame = { event?: string; data: string };

function parseSse(text: string): Frame[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const frame: Frame = { data: "" };
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) frame.event = line.slice(7);
        if (line.startsWith("data: ")) frame.data += line.slice(6);
      }
      return frame;
    });
}

// biome-style narrow JSON reader for frames in tests.
type Json = Record<string, any>;
const dataOf = (frames: Frame[]) => frames.filter((frame) => frame.data !== "[DONE]").map((frame) => JSON.parse(frame.data) as Json);

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${fake.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

const writeTool = {
  name: "Write",
  input_schema: { type: "object", properties: { file_path: { type: "string" }, content: { type: "string" } }, required: ["file_path", "content"] },
};
const bashTool = { name: "Bash", input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } };

describe("directives", () => {
  test("the last directive wins and values may hold spaces or quotes", () => {
    const directive = parseLastDirective('[[od:text]] then [[od:shell cmd=echo hi there path="a b.txt" times=2]]');
    expect(directive).toEqual({
      name: "shell",
      positional: [],
      args: { cmd: "echo hi there", path: "a b.txt", times: "2" },
      raw: '[[od:shell cmd=echo hi there path="a b.txt" times=2]]',
    });
    expect(parseLastDirective("[[od:fail 429 times=3]]")).toMatchObject({ name: "fail", positional: ["429"], args: { times: "3" } });
    expect(parseLastDirective("no directive here")).toBeUndefined();
  });

  test("injected wrappers are stripped and wrapper-only messages are empty", () => {
    expect(stripInjectedWrappers("<system-reminder>x [[od:slow]]</system-reminder>\nhello")).toBe("hello");
    expect(stripInjectedWrappers("<environment_context><cwd>/p</cwd></environment_context>")).toBe("");
    expect(stripInjectedWrappers("# AGENTS.md instructions for /p\n\n<INSTRUCTIONS>x</INSTRUCTIONS>")).toBe("");
  });
});

describe("Anthropic Messages", () => {
  test("streams text stating how many real user messages the request holds", async () => {
    const response = await post("/v1/messages?beta=true", {
      model: "claude-x",
      stream: true,
      tools: [writeTool],
      messages: [
        { role: "user", content: "first prompt" },
        { role: "assistant", content: [{ type: "text", text: "ok" }] },
        { role: "user", content: [{ type: "text", text: "<system-reminder>injected [[od:write]]</system-reminder>" }, { type: "text", text: "second" }] },
      ],
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const frames = parseSse(await response.text());
    const events = frames.map((frame) => frame.event).filter((event, index, all) => event !== all[index - 1]);
    expect(events).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const text = dataOf(frames)
      .filter((data) => data.delta?.type === "text_delta")
      .map((data) => data.delta.text)
      .join("");
    expect(text).toBe("od-fake: user_messages=2");
    expect(fake.requests()[0]).toMatchObject({ route: "anthropic", scenario: "text", userMessages: 2, step: 0, query: "?beta=true" });
  });

  test("thinking blocks carry a signature_delta", async () => {
    const frames = dataOf(parseSse(await (await post("/v1/messages", { stream: true, tools: [writeTool], messages: [{ role: "user", content: "[[od:thinking]]" }] })).text()));
    const deltas = frames.filter((data) => data.type === "content_block_delta").map((data) => data.delta.type);
    expect(deltas.slice(0, 2)).toEqual(["thinking_delta", "signature_delta"]);
    expect(frames[1]?.content_block).toEqual({ type: "thinking", thinking: "", signature: "" });
  });

  test("write calls the Write tool with an absolute path from the working-directory cue, then answers after the result", async () => {
    const messages: Json[] = [
      { role: "system", content: "Primary working directory: /tmp/project" },
      { role: "user", content: '[[od:write path=out/a.txt content="hi there"]]' },
    ];
    const frames = dataOf(parseSse(await (await post("/v1/messages", { stream: true, tools: [bashTool, writeTool], messages })).text()));
    const start = frames.find((data) => data.content_block?.type === "tool_use");
    expect(start?.content_block).toMatchObject({ name: "Write", input: {} });
    const json = frames
      .filter((data) => data.delta?.type === "input_json_delta")
      .map((data) => data.delta.partial_json)
      .join("");
    expect(JSON.parse(json)).toEqual({ file_path: "/tmp/project/out/a.txt", content: "hi there" });
    expect(frames.find((data) => data.type === "message_delta")?.delta.stop_reason).toBe("tool_use");

    const id = start?.content_block.id as string;
    messages.push({ role: "assistant", content: [{ type: "tool_use", id, name: "Write", input: JSON.parse(json) }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "File created" }] });
    const final = (await (await post("/v1/messages", { tools: [writeTool], messages })).json()) as Json;
    expect(final).toMatchObject({ type: "message", role: "assistant", stop_reason: "end_turn" });
    expect(final.content[0].text).toContain("od-fake: user_messages=1; done: write out/a.txt; tool result received");
    expect(fake.requests().map((request) => request.step)).toEqual([0, 1]);
  });

  test("a working-directory cue inside a system-reminder of the prompt message is found", async () => {
    const reminder = "<system-reminder>I'm currently working in the directory: /tmp/q</system-reminder>";
    const body = { tools: [writeTool], messages: [{ role: "user", content: [{ type: "text", text: reminder }, { type: "text", text: "[[od:write path=a.txt]]" }] }] };
    const answer = (await (await post("/v1/messages", body)).json()) as Json;
    expect(answer.content[0].input).toEqual({ file_path: "/tmp/q/a.txt", content: "hello from od-fake" });
  });

  test("count_tokens is answered", async () => {
    const body = (await (await post("/v1/messages/count_tokens", { messages: [{ role: "user", content: "hi" }] })).json()) as Json;
    expect(body.input_tokens).toBeGreaterThan(0);
  });
});

describe("OpenAI Chat Completions", () => {
  const tools = [
    { type: "function", function: { name: "run_shell_command", parameters: { type: "object", properties: { command: { type: "string" }, description: { type: "string" } }, required: ["command", "description"] } } },
    { type: "function", function: { name: "write_file", parameters: { type: "object", properties: { file_path: { type: "string" }, content: { type: "string" } } } } },
  ];

  test("streams reasoning_content, incremental tool call arguments, a usage chunk and [DONE]", async () => {
    const response = await post("/api/v1/chat/completions", {
      stream: true,
      stream_options: { include_usage: true },
      tools,
      messages: [{ role: "system", content: "sys" }, { role: "user", content: [{ type: "text", text: "[[od:shell cmd=ls -la]]" }] }],
    });
    const frames = parseSse(await response.text());
    expect(frames.at(-1)?.data).toBe("[DONE]");
    const chunks = dataOf(frames);
    const calls = chunks.flatMap((chunk) => chunk.choices?.[0]?.delta?.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, type: "function", function: { name: "run_shell_command", arguments: "" } });
    expect(calls.length).toBe(3);
    expect(JSON.parse(calls.map((call: Json) => call.function.arguments).join(""))).toEqual({ command: "ls -la", description: "od-fake step" });
    expect(chunks.find((chunk) => chunk.choices?.[0]?.finish_reason)?.choices[0].finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 10 } });
  });

  test("thinking streams delta.reasoning_content before the text; no usage chunk unless asked", async () => {
    const chunks = dataOf(parseSse(await (await post("/v1/chat/completions", { stream: true, tools, messages: [{ role: "user", content: "[[od:thinking]]" }] })).text()));
    expect(chunks[1]?.choices[0].delta.reasoning_content).toContain("thinking");
    expect(chunks.some((chunk) => Array.isArray(chunk.choices) && chunk.choices.length === 0)).toBe(false);
  });

  test("non-streaming answer; requests without tools are side calls answered with text", async () => {
    const body = (await (await post("/v1/chat/completions", { messages: [{ role: "user", content: "[[od:write]]" }] })).json()) as Json;
    expect(body.object).toBe("chat.completion");
    expect(body.choices[0].message).toEqual({ role: "assistant", content: "od-fake: user_messages=1" });
  });

  test("long streams many deltas", async () => {
    const chunks = dataOf(parseSse(await (await post("/v1/chat/completions", { stream: true, tools, messages: [{ role: "user", content: "[[od:long]]" }] })).text()));
    const contents = chunks.map((chunk) => chunk.choices?.[0]?.delta?.content).filter((text) => typeof text === "string" && text.length > 0);
    expect(contents.length).toBe(31);
    expect(contents.at(-1)).toBe("od-fake: user_messages=1");
  });
});

describe("OpenAI Responses", () => {
  const codexTools = [
    { type: "function", name: "exec_command", parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] } },
    { type: "custom", name: "apply_patch", format: { type: "grammar" } },
  ];
  const input = (text: string) => [
    { type: "message", role: "developer", content: [{ type: "input_text", text: "<permissions instructions>x</permissions instructions>" }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context><cwd>/tmp/p</cwd></environment_context>" }] },
    { type: "message", role: "user", content: [{ type: "input_text", text }] },
  ];

  test("apply_patch streams as custom_tool_call_input deltas with an Add File patch; sequence numbers increase", async () => {
    const frames = parseSse(await (await post("/v1/responses", { stream: true, tools: codexTools, input: input("[[od:write path=x.txt content=hey]]") })).text());
    const events = dataOf(frames);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(frames.map((frame) => frame.event)).toContain("response.custom_tool_call_input.delta");
    const done = events.find((event) => event.type === "response.custom_tool_call_input.done");
    expect(done?.input).toBe("*** Begin Patch\n*** Add File: x.txt\n+hey\n*** End Patch");
    const completed = events.at(-1);
    expect(completed?.type).toBe("response.completed");
    expect(completed?.response.output[0]).toMatchObject({ type: "custom_tool_call", name: "apply_patch" });
    expect(completed?.response.usage.total_tokens).toBeGreaterThan(0);
    expect(fake.requests()[0]).toMatchObject({ userMessages: 1, scenario: "write" });
  });

  test("shell uses exec_command {cmd}; after the output the step is 1 and the answer is text", async () => {
    const first = dataOf(parseSse(await (await post("/v1/responses", { stream: true, tools: codexTools, input: input("[[od:shell cmd=pwd]]") })).text()));
    const call = first.find((event) => event.type === "response.output_item.done")?.item;
    expect(call).toMatchObject({ type: "function_call", name: "exec_command", arguments: '{"cmd":"pwd"}' });
    const followUp = [
      ...input("[[od:shell cmd=pwd]]"),
      { type: "reasoning", summary: [] },
      call,
      { type: "function_call_output", call_id: call.call_id, output: "/tmp/p" },
    ];
    const second = dataOf(parseSse(await (await post("/v1/responses", { stream: true, tools: codexTools, input: followUp })).text()));
    const text = second.filter((event) => event.type === "response.output_text.delta").map((event) => event.delta).join("");
    expect(text).toBe("od-fake: user_messages=1; done: shell pwd; tool result received");
    expect(fake.requests().map((request) => request.step)).toEqual([0, 1]);
  });

  test("thinking adds a reasoning item; midstream-error ends with response.failed", async () => {
    const thinking = dataOf(parseSse(await (await post("/v1/responses", { stream: true, tools: codexTools, input: input("[[od:thinking]]") })).text()));
    expect(thinking.some((event) => event.type === "response.reasoning_summary_text.delta")).toBe(true);
    const failed = dataOf(parseSse(await (await post("/v1/responses", { stream: true, tools: codexTools, input: input("[[od:midstream-error]]") })).text()));
    expect(failed.at(-1)).toMatchObject({ type: "response.failed", response: { status: "failed" } });
  });
});

describe("errors, pacing and plumbing", () => {
  test("status answers every time; fail N times then succeeds", async () => {
    const denied = await post("/v1/messages", { tools: [writeTool], messages: [{ role: "user", content: "[[od:status 401]]" }] });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual({ type: "error", error: { type: "authentication_error", message: "od-fake: simulated HTTP 401" } });

    const body = { tools: [{ type: "function", name: "x" }], input: "[[od:fail 429 times=2]]" };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await post("/v1/responses", body)).status);
    expect(statuses).toEqual([429, 429, 200]);
    const limited = await post("/v1/chat/completions", { messages: [{ role: "user", content: "[[od:fail 500 times=1]]" }] });
    expect(limited.status).toBe(500);
    expect(((await limited.json()) as Json).error.type).toBe("server_error");
  });

  test("slow streams one delta per interval until the client hangs up", async () => {
    const controller = new AbortController();
    const response = await post("/v1/chat/completions", { stream: true, tools: [{ type: "function", function: { name: "x" } }], messages: [{ role: "user", content: "[[od:slow]]" }] });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let received = "";
    while ((received.match(/tick/g) ?? []).length < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
    expect(received).toContain("tick 3 ");
    controller.abort();
    await reader.cancel();
    expect(fake.requests()[0]?.scenario).toBe("slow");
  });

  test("gzip bodies are decoded, keys are redacted in the log, unknown routes are 404 and logged, models are listed", async () => {
    const compressed = gzipSync(JSON.stringify({ stream: false, tools: [bashTool], messages: [{ role: "user", content: "hi" }] }));
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip", "x-api-key": "sk-fake", authorization: "Bearer sk-fake" },
      body: compressed,
    });
    expect(response.status).toBe(200);
    const logged = fake.requests()[0];
    expect(logged?.headers["x-api-key"]).toBe("<redacted>");
    expect(logged?.headers.authorization).toBe("<redacted>");
    expect(logged?.body).toMatchObject({ messages: [{ role: "user", content: "hi" }] });

    const missing = await fetch(`${fake.url}/v1/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).error.message).toContain("/v1/nope");
    expect(fake.requests().at(-1)).toMatchObject({ route: "not_found", status: 404, path: "/v1/nope" });

    const models = (await (await fetch(`${fake.url}/v1/models`)).json()) as Json;
    expect(models.data.map((model: Json) => model.id)).toContain("fake-model");
  });
});
