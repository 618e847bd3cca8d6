/**
 * Real Claude Code recordings (tests/fixtures/claude) cut and re-joined into transcripts for the UI e2e, with the
 * recorded `<CWD>` placeholder pointed at the project the fake runs in, written to files the fake replays.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "claude");

function recording(name: string): string[] {
  return readFileSync(join(FIXTURES, `${name}.jsonl`), "utf8").split("\n").filter(Boolean);
}

/** The file the write transcript creates (the recording wrote hello.txt; HTML makes it previewable). */
export const WRITTEN_FILE = { path: "hello.html", content: "<h1>hello from od</h1>" };

/**
 * A thinking → Write tool → answer turn in four parts, so a test can pause (and write the file) between them:
 * `init+thinking`, the Write call, its result, and the closing answer with the result line.
 */
export function writeTurnTranscript(
  cwd: string,
  outDir: string,
): { thinking: string; toolUse: string; toolResult: string; answer: string; answerText: string } {
  const point = (line: string) =>
    line.replaceAll("<CWD>", cwd).replaceAll("hello.txt", WRITTEN_FILE.path).replaceAll("hello from od", WRITTEN_FILE.content);
  const write = recording("write").map(point);
  // The thinking recording's message id is renamed so it cannot collide with the write recording's.
  const thinking = recording("thinking").map((line) => point(line).replaceAll("<msg-1>", "<msg-0>"));
  const [init, toolUse, toolResult, answer, result] = write;
  const thinkingLines = thinking.filter((line) => line.includes('"thinking_tokens"') || line.includes('"type":"thinking"'));
  const files = {
    thinking: join(outDir, "turn-thinking.jsonl"),
    toolUse: join(outDir, "turn-tool-use.jsonl"),
    toolResult: join(outDir, "turn-tool-result.jsonl"),
    answer: join(outDir, "turn-answer.jsonl"),
  };
  writeFileSync(files.thinking, [init, ...thinkingLines].join("\n") + "\n");
  writeFileSync(files.toolUse, toolUse + "\n");
  writeFileSync(files.toolResult, toolResult + "\n");
  writeFileSync(files.answer, [answer, result].join("\n") + "\n");
  const answerText = (JSON.parse(answer!) as { message: { content: Array<{ text: string }> } }).message.content[0]!.text;
  return { ...files, answerText };
}

/** The recorded system/init line alone (a run that starts and then hangs). */
export function initLine(cwd: string): string {
  return recording("write")[0]!.replaceAll("<CWD>", cwd);
}

/**
 * A one-answer turn (the recorded text turn: init, one assistant message, the result) whose answer is `text`,
 * written to `file` for the fake to replay.
 */
export function answerTranscript(cwd: string, text: string, file: string): string {
  const [init, answer, result] = recording("text").map((line) => line.replaceAll("<CWD>", cwd));
  const message = JSON.parse(answer!) as { message: { content: Array<{ type: string; text: string }> } };
  message.message.content = [{ type: "text", text }];
  const end = JSON.parse(result!) as { result: string };
  end.result = text;
  writeFileSync(file, [init, JSON.stringify(message), JSON.stringify(end)].join("\n") + "\n");
  return file;
}

/**
 * The `Task` sub-agent transcript (tests/fixtures/claude/subagent-task.synthetic.jsonl) in two parts, so a test can
 * look at the child run while it still works: everything up to the sub-agent's report, then the report onwards.
 */
export function subAgentTranscript(cwd: string, outDir: string): { working: string; rest: string } {
  const lines = recording("subagent-task.synthetic").map((line) => line.replaceAll("/project", cwd));
  const report = lines.findIndex((line) => line.includes('"tool_use_id":"toolu_01TaskSurvey"'));
  const files = { working: join(outDir, "subagent-working.jsonl"), rest: join(outDir, "subagent-rest.jsonl") };
  writeFileSync(files.working, lines.slice(0, report).join("\n") + "\n");
  writeFileSync(files.rest, lines.slice(report).join("\n") + "\n");
  return files;
}

/** The recorded write turn in one file (its result line reports tokens and cost), pointed at `cwd`. */
export function writeTranscript(cwd: string, outDir: string): string {
  const file = join(outDir, "write-turn.jsonl");
  writeFileSync(file, recording("write").map((line) => line.replaceAll("<CWD>", cwd)).join("\n") + "\n");
  return file;
}
