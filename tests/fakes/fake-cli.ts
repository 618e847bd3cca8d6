/**
 * A scriptable stand-in for any line-oriented agent CLI (claude stream-json, opencode/codex json events, copilot,
 * qoder, plain text). Tests put a shim named like the real CLI on PATH that runs this file; the behaviour comes
 * from `FAKE_CLI_SCRIPT` (JSON steps, or `@<path>` to a JSON file). Every invocation appends its argv, cwd,
 * selected env and stdin to `FAKE_CLI_LEDGER` (JSONL) so tests can assert what od sent.
 *
 * Steps (run in order):
 *   {"out": "line"}                 print a line on stdout ({{PROMPT}} → the prompt, JSON-escaped)
 *   {"outFile": "path"}             print a recorded transcript (e.g. tests/fixtures/claude/text.jsonl)
 *   {"outFile": "path", "perSecond": N}
 *                                   the same, paced at N lines a second (by the clock, in 10 ms batches)
 *   {"repeat": N, "out": "line"}    print a line N times ({{i}} → index)
 *   {"err": "text"}                 print on stderr
 *   {"sleep": ms}                   wait
 *   {"waitForFile": "path"}         wait until a test creates that file (hold the run at a point, no clock)
 *   {"readLine": true}              wait for one stdin line (stream-json input), recorded in the ledger
 *   {"readAll": true}               read stdin to EOF (text prompt delivery), recorded in the ledger
 *   {"echoInput": true}             print the last stdin line's user text as a claude assistant text line
 *   {"writeFile": {"path", "content"}}  ({{PROMPT}} in content → the prompt)
 *   {"removeFile": "path"}
 *   {"git": ["arg", …]}             run git with these arguments where we run (an agent's own commit)
 *   {"recordFiles": true}           record (base64) every file at or under the absolute paths in our argv
 *                                   (`/path` words and `--flag=/path`), as they are where we run
 *   {"orphan": true}                start a grandchild in its own session that ignores SIGTERM and sleeps
 *   {"orphan": "holdStdout"}        …and let it inherit our stdout
 *   {"ignoreTerm": true}            ignore SIGTERM from now on
 *   {"hang": true}                  never finish
 *   {"crash": true}                 die by SIGKILL mid-stream
 *   {"exit": code}                  exit now
 *   {"canUseTool": {"tool_name", "input", "writeFile"?: {"path", "content"}}}
 *                                   claude's permission round trip: print a `can_use_tool` control_request, wait for
 *                                   the `control_response` line (recorded in the ledger), write the file only when it
 *                                   allows, and print the tool's result (the deny message when refused)
 *   {"streamDeltas": {"parts": [...], "intervalMs": n}}
 *                                   one claude stream_event text_delta per part, `intervalMs` apart, then the
 *                                   assistant message carrying their concatenation
 *
 * Detection probes are answered without running the script, so the same shim can sit on the PATH of a real od:
 *   --version                       prints FAKE_CLI_VERSION (default 1.0.0) after FAKE_CLI_VERSION_DELAY_MS
 *   --help (or `SUBCOMMAND --help`) prints FAKE_CLI_HELP (default a one-line usage)
 *   (every probe argv is appended to FAKE_CLI_PROBE_LOG as a JSON line when that is set)
 *   auth status                     prints a signed-in claude-style JSON status
 *   any argv holding the hidden-flag probe value: "unknown option" on stderr, exit 1
 *   sandbox -- …                    codex's sandbox probe: exit 0, or FAKE_CLI_SANDBOX_ERROR on stderr and exit 1
 *   a model listing (`--list-models`, `models`, `debug models`, `model list`, `… --models`): prints FAKE_CLI_MODELS
 *                                   (default nothing: no live list)
 */
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

type Step = Record<string, unknown>;

const raw = process.env.FAKE_CLI_SCRIPT ?? "[]";
const steps: Step[] = JSON.parse(raw.startsWith("@") ? readFileSync(raw.slice(1), "utf8") : raw);
const ledger = process.env.FAKE_CLI_LEDGER;
const stdinLines: string[] = [];
let stdinText = "";
let prompt = process.argv.at(-1) ?? "";

const stdinReader = (async function* () {
  let buffered = "";
  for await (const chunk of process.stdin) {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
    }
  }
  if (buffered) yield buffered;
})();

function record(extra: Record<string, unknown>): void {
  if (!ledger) return;
  appendFileSync(
    ledger,
    JSON.stringify({
      pid: process.pid,
      argv: process.argv.slice(2),
      cwd: process.cwd(),
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("OD_") || k.startsWith("FAKE_ENV_") || /_API_KEY$|_TOKEN$|_CONFIG_CONTENT$/.test(k))),
      ...extra,
    }) + "\n",
  );
}

function write(line: string): Promise<void> {
  return new Promise((done) => process.stdout.write(line + "\n", () => done()));
}

function userText(line: string): string {
  try {
    const message = JSON.parse(line).message;
    const content = message?.content;
    return typeof content === "string" ? content : (content?.map?.((c: { text?: string }) => c.text ?? "").join("") ?? "");
  } catch {
    return line;
  }
}

/** Every file at or under `path`, as base64 by path (bounded: a fake only ever looks at small staged trees). */
function filesUnder(path: string, into: Record<string, string>): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat?.isFile() && Object.keys(into).length < 200) into[path] = readFileSync(path).toString("base64");
  else if (stat?.isDirectory()) for (const name of readdirSync(path).sort()) filesUnder(join(path, name), into);
}

/** The capability probe's throwaway value (server/runtimes/capabilities.ts HIDDEN_FLAG_PROBE_VALUE). */
const HIDDEN_FLAG_PROBE_VALUE = "__od_capability_probe__";

/** The argv of the defs' model-listing probes (server/runtimes/defs: listModels, fetchModels). */
function isModelListing(argv: string[]): boolean {
  return argv[0] === "--list-models" || argv[0] === "models" || (argv[0] === "debug" && argv[1] === "models") || (argv[0] === "model" && argv[1] === "list") || argv.includes("--models");
}

/** Answers a detection probe and exits (logging it to FAKE_CLI_PROBE_LOG when set); returns false for any other argv. */
async function answerProbe(argv: string[]): Promise<boolean> {
  const models = isModelListing(argv);
  const help = argv.includes("--help");
  const sandbox = argv[0] === "sandbox" && argv[1] === "--";
  const isProbe = models || help || sandbox || argv[0] === "--version" || (argv[0] === "auth" && argv[1] === "status") || argv.includes(HIDDEN_FLAG_PROBE_VALUE);
  if (!isProbe) return false;
  if (process.env.FAKE_CLI_PROBE_LOG) appendFileSync(process.env.FAKE_CLI_PROBE_LOG, `${JSON.stringify(argv)}\n`);
  let code = 0;
  if (models) {
    if (process.env.FAKE_CLI_MODELS) await write(process.env.FAKE_CLI_MODELS);
  } else if (argv[0] === "--version") {
    const delay = Number(process.env.FAKE_CLI_VERSION_DELAY_MS ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    await write(process.env.FAKE_CLI_VERSION ?? "1.0.0");
  } else if (help) {
    await write(process.env.FAKE_CLI_HELP ?? "Usage: fake [options]");
  } else if (sandbox) {
    if (process.env.FAKE_CLI_SANDBOX_ERROR) process.stderr.write(`${process.env.FAKE_CLI_SANDBOX_ERROR}\n`);
    code = process.env.FAKE_CLI_SANDBOX_ERROR ? 1 : 0;
  } else if (argv[0] === "auth") {
    await write(JSON.stringify({ loggedIn: true, authMethod: "fake" }));
  } else {
    process.stderr.write(`error: unknown option '${HIDDEN_FLAG_PROBE_VALUE}'\n`);
    code = 1;
  }
  process.exit(code);
}

/** `lines` at `perSecond` lines a second, by a schedule from the start (a late batch catches up, not drifts). */
async function writePaced(lines: string[], perSecond: number): Promise<void> {
  const started = performance.now();
  let written = 0;
  while (written < lines.length) {
    const due = Math.min(lines.length, Math.max(written + 1, Math.floor(((performance.now() - started) * perSecond) / 1000)));
    await write(lines.slice(written, due).join("\n"));
    written = due;
    const wait = started + (written * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, Math.max(wait, 10)));
  }
}

/** Claude partial-message lines: a text_delta stream_event per part, then the whole message. */
async function streamDeltas(parts: string[], intervalMs: number): Promise<void> {
  const event = (inner: unknown) => JSON.stringify({ type: "stream_event", event: inner, session_id: "fake" });
  await write(event({ type: "message_start", message: { id: "m-deltas", role: "assistant", content: [] } }));
  await write(event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }));
  for (const part of parts) {
    await write(event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: part } }));
    if (intervalMs > 0) await new Promise((r) => setTimeout(r, intervalMs));
  }
  await write(event({ type: "content_block_stop", index: 0 }));
  await write(JSON.stringify({ type: "assistant", message: { id: "m-deltas", role: "assistant", content: [{ type: "text", text: parts.join("") }] }, session_id: "fake" }));
}

type CanUseToolStep = { tool_name: string; input: Record<string, unknown>; writeFile?: { path: string; content: string } };
let controlRequests = 0;

/** Claude's `--permission-prompt-tool stdio` round trip for one tool call. */
async function canUseTool(step: CanUseToolStep): Promise<void> {
  const requestId = `req-${++controlRequests}`;
  const toolUseId = `toolu-perm-${controlRequests}`;
  await write(JSON.stringify({ type: "assistant", message: { id: `m-perm-${controlRequests}`, role: "assistant", content: [{ type: "tool_use", id: toolUseId, name: step.tool_name, input: step.input }] }, session_id: "fake" }));
  await write(JSON.stringify({ type: "control_request", request_id: requestId, request: { subtype: "can_use_tool", tool_name: step.tool_name, input: step.input, tool_use_id: toolUseId } }));
  const next = await stdinReader.next();
  const line = next.done ? "" : next.value;
  record({ event: "control-response", line });
  let response: { behavior?: string; message?: string } = {};
  try {
    const parsed = JSON.parse(line);
    if (parsed.type === "control_response" && parsed.response?.request_id === requestId) response = parsed.response.response ?? {};
  } catch {
    // No answer (stdin closed): nothing is allowed.
  }
  const allowed = response.behavior === "allow";
  if (allowed && step.writeFile) {
    mkdirSync(dirname(resolve(step.writeFile.path)), { recursive: true });
    writeFileSync(resolve(step.writeFile.path), step.writeFile.content);
  }
  const content = allowed ? "done" : (response.message ?? "denied");
  await write(JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content, is_error: !allowed }] }, session_id: "fake" }));
}

async function main(): Promise<void> {
  if (await answerProbe(process.argv.slice(2))) return;
  record({ event: "start" });
  for (const step of steps) {
    if (typeof step.out === "string" && step.repeat === undefined) await write(step.out.replaceAll("{{PROMPT}}", JSON.stringify(prompt).slice(1, -1)));
    if (typeof step.outFile === "string") {
      const lines = readFileSync(resolve(step.outFile), "utf8").split("\n").filter(Boolean);
      if (typeof step.perSecond === "number" && step.perSecond > 0) await writePaced(lines, step.perSecond);
      else for (const line of lines) await write(line);
    }
    if (typeof step.repeat === "number") {
      const template = String(step.out);
      let batch = "";
      for (let i = 0; i < step.repeat; i++) {
        batch += template.replaceAll("{{i}}", String(i)) + "\n";
        if (batch.length > 64 * 1024) {
          await new Promise<void>((done) => process.stdout.write(batch, () => done()));
          batch = "";
        }
      }
      if (batch) await new Promise<void>((done) => process.stdout.write(batch, () => done()));
    }
    if (typeof step.err === "string") process.stderr.write(step.err + "\n");
    if (typeof step.sleep === "number") await new Promise((r) => setTimeout(r, step.sleep as number));
    if (typeof step.waitForFile === "string") while (!existsSync(step.waitForFile)) await new Promise((r) => setTimeout(r, 20));
    if (step.readLine) {
      const next = await stdinReader.next();
      if (!next.done) {
        stdinLines.push(next.value);
        prompt = userText(next.value);
        record({ event: "stdin-line", line: next.value });
      }
    }
    if (step.readAll) {
      for await (const line of stdinReader) stdinText += line + "\n";
      prompt = stdinText.trimEnd();
      record({ event: "stdin-all", text: stdinText });
    }
    if (step.echoInput) {
      const text = userText(stdinLines.at(-1) ?? "");
      await write(JSON.stringify({ type: "assistant", message: { id: `m${stdinLines.length}`, role: "assistant", content: [{ type: "text", text: `echo: ${text}` }] }, session_id: "fake" }));
    }
    if (step.writeFile) {
      const { path, content } = step.writeFile as { path: string; content: string };
      mkdirSync(dirname(resolve(path)), { recursive: true });
      writeFileSync(resolve(path), content.replaceAll("{{PROMPT}}", prompt));
    }
    if (typeof step.removeFile === "string") rmSync(resolve(step.removeFile));
    if (Array.isArray(step.git)) {
      const identity = ["-c", "user.name=agent", "-c", "user.email=agent@example.invalid", "-c", "commit.gpgsign=false"];
      record({ event: "git", status: spawnSync("git", [...identity, ...(step.git as string[])], { stdio: "ignore" }).status });
    }
    if (step.recordFiles) {
      const files: Record<string, string> = {};
      for (const word of process.argv.slice(2)) {
        const path = word.startsWith("/") ? word : word.includes("=/") ? word.slice(word.indexOf("=/") + 1) : undefined;
        if (path) filesUnder(path, files);
      }
      record({ event: "files", files });
    }
    if (step.orphan) {
      // "holdStdout": the grandchild inherits our stdout, as tool shells do, keeping the pipe open after we exit.
      const stdio = step.orphan === "holdStdout" ? (["ignore", "inherit", "ignore"] as const) : "ignore";
      const child = spawn("setsid", ["sh", "-c", "trap '' TERM; sleep 600"], { detached: true, stdio: stdio as never });
      record({ event: "orphan", orphanPid: child.pid });
      child.unref();
    }
    if (step.canUseTool) await canUseTool(step.canUseTool as CanUseToolStep);
    if (step.streamDeltas) {
      const { parts, intervalMs } = step.streamDeltas as { parts: string[]; intervalMs?: number };
      await streamDeltas(parts, intervalMs ?? 0);
    }
    if (step.ignoreTerm) process.on("SIGTERM", () => record({ event: "ignored-sigterm" }));
    if (step.hang) await new Promise(() => setInterval(() => {}, 1 << 30));
    if (step.crash) process.kill(process.pid, "SIGKILL");
    if (typeof step.exit === "number") {
      record({ event: "exit", code: step.exit });
      process.exit(step.exit);
    }
  }
  record({ event: "exit", code: 0 });
  process.exit(0);
}

void main();
