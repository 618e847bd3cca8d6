// `od run` as a user runs it: a real process, a fake agent CLI on PATH, exit codes and JSON lines.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunEvent } from "../../server/contracts/runs.ts";
import { spawnChild } from "../../server/platform/process.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";
import { writeShim } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const textFixture = join(root, "tests", "fixtures", "copilot", "text.jsonl");
const TIMEOUT = 30_000;

async function odRun(args: string[], options: { steps: unknown[]; stdin?: string; interruptAfterLine?: boolean; systemPath?: boolean; shim?: string; setUp?: (project: string) => void }) {
  using dir = tempDir("od-cli-run-");
  const bin = join(dir.path, "bin");
  const project = join(dir.path, "project");
  mkdirSync(bin);
  mkdirSync(project);
  options.setUp?.(project);
  writeShim(bin, options.shim ?? "copilot");
  const script = join(dir.path, "script.json");
  writeFileSync(script, JSON.stringify(options.steps));
  const child = await spawnChild({
    argv: [process.execPath, join(root, "server", "main.ts"), "run", "--project", project, "--data-dir", join(dir.path, "data"), ...args],
    env: { PATH: options.systemPath === false ? bin : `${bin}:/usr/bin:/bin`, HOME: dir.path, FAKE_CLI_SCRIPT: `@${script}` },
    stdin: "pipe",
  });
  if (options.stdin !== undefined) await child.stdin!.write(options.stdin);
  child.stdin!.end();
  let stdout = "";
  let stderr = "";
  const decoder = new TextDecoder();
  const errDone = (async () => {
    for await (const chunk of child.stderr) stderr += decoder.decode(chunk);
  })();
  for await (const chunk of child.stdout) {
    stdout += decoder.decode(chunk);
    if (options.interruptAfterLine && stdout.includes('"type":"start"')) {
      options.interruptAfterLine = false;
      child.kill("SIGINT");
    }
  }
  await errDone;
  const exit = await child.exited;
  return { exit, stdout, stderr, projects: savedProjects(join(dir.path, "data", "od.db")) };
}

/** Folders the run left saved as projects. */
function savedProjects(database: string): string[] {
  if (!existsSync(database)) return [];
  const store = Store.open(database, openBunSqlite);
  try {
    return store.projects.list().map((project) => project.path);
  } finally {
    store.close();
  }
}

describe("od run", () => {
  // Issue #34: a run that succeeded while most of its tool calls failed says so on the terminal too.
  test.concurrent("a succeeded run whose tool calls mostly failed prints one warning naming them", async () => {
    const bwrap = "bwrap: No permissions to create a new namespace, likely because the kernel does not allow non-privileged user namespaces.";
    const call = (id: string, command: string) => JSON.stringify({ type: "assistant", message: { id: `m-${id}`, role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command } }] } });
    const failed = (id: string) => JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: bwrap, is_error: true }] } });
    const steps = [
      { readLine: true },
      { out: call("t1", "ls") },
      { out: failed("t1") },
      { out: call("t2", "npm test") },
      { out: failed("t2") },
      { out: JSON.stringify({ type: "assistant", message: { id: "m-3", role: "assistant", content: [{ type: "text", text: "done" }] } }) },
      { out: JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", duration_ms: 5, num_turns: 1, usage: { input_tokens: 1, output_tokens: 1 } }) },
    ];
    const { exit, stderr } = await odRun(["--agent", "claude", "run the tests"], { steps, shim: "claude" });
    expect(exit.code).toBe(0);
    const warnings = stderr.split("\n").filter((line) => line.startsWith("od: warning:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("Bash");
  }, TIMEOUT);

  // Issue #37: a cloned repository's own MCP servers run programs; od run leaves them out unless trusted, and says so.
  test.concurrent("a project's own MCP servers are left out with a notice on stderr, unless --trust-project-mcp", async () => {
    const setUp = (project: string) => {
      mkdirSync(join(project, ".od"));
      writeFileSync(join(project, ".od", "mcp-config.json"), JSON.stringify({ servers: [{ name: "evil", type: "stdio", command: "sh", args: ["-c", "touch pwned"] }] }));
    };
    const steps = [{ readLine: true }, { outFile: join(root, "tests", "fixtures", "claude", "text.jsonl") }];
    const left = await odRun(["--agent", "claude", "hello"], { steps, shim: "claude", setUp });
    expect(left.exit.code).toBe(0);
    expect(left.stderr).toContain("od: this project's own MCP servers (evil, from .od/mcp-config.json) were not started");
    const trusted = await odRun(["--agent", "claude", "--trust-project-mcp", "hello"], { steps, shim: "claude", setUp });
    expect(trusted.exit.code).toBe(0);
    expect(trusted.stderr).not.toContain("were not started");
  }, TIMEOUT);

  test.concurrent("--json prints RunEvents, one per line, and exits 0 on success", async () => {
    const { exit, stdout, projects } = await odRun(["--agent", "copilot", "--json", "hello"], { steps: [{ readAll: true }, { outFile: textFixture }] });
    expect(exit.code).toBe(0);
    const events = stdout.trim().split("\n").map((line) => RunEvent.parse(JSON.parse(line)));
    expect(events[0]!.type).toBe("start");
    expect(events.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
    expect(projects).toHaveLength(1);
  }, TIMEOUT);

  test.concurrent("human output indents a sub-agent's calls under the Task call that started it", async () => {
    const subAgent = join(root, "tests", "fixtures", "claude", "subagent-task.synthetic.jsonl");
    const { exit, stdout } = await odRun(["--agent", "claude", "survey"], { shim: "claude", steps: [{ readLine: true }, { outFile: subAgent }] });
    expect(exit.code).toBe(0);
    const calls = stdout.split("\n").filter((line) => /^(→|  ↳)/.test(line));
    expect(calls).toEqual(["→ Task (task)", "  ↳ Bash (command)", "  ↳ Edit /project/styles/main.css (file_edit)", "→ Bash (command)"]);
  }, TIMEOUT);

  test.concurrent("human output streams the answer; a failure exits 1 with the reason on stderr", async () => {
    const ok = await odRun(["--agent", "copilot", "hello"], { steps: [{ readAll: true }, { outFile: textFixture }] });
    expect(ok.exit.code).toBe(0);
    expect(ok.stdout).toContain("od-fake");
    const failed = await odRun(["--agent", "copilot", "hello"], { steps: [{ readAll: true }, { exit: 0 }] });
    expect(failed.exit.code).toBe(1);
    // Issue #34: the reason is said once, not also as the run's error before it.
    expect(failed.stderr).toMatch(/^od: run failed: .*without producing any output\n$/);
  }, TIMEOUT);

  test.concurrent("Ctrl-C without --json says `od: run canceled` once, without repeating the word", async () => {
    // The answer's text is what `interruptAfterLine` waits for, so Ctrl-C comes once the agent is streaming.
    const { exit, stderr } = await odRun(["--agent", "copilot", "slow"], {
      steps: [{ readAll: true }, { out: '{"type":"assistant.message_delta","data":{"deltaContent":"\\"type\\":\\"start\\""}}' }, { hang: true }],
      interruptAfterLine: true,
    });
    expect(exit.code).toBe(130);
    expect(stderr).toBe("od: run canceled\n");
  }, TIMEOUT);

  test.concurrent("`-` reads the prompt from stdin", async () => {
    const { exit, stdout } = await odRun(["--agent", "copilot", "--json", "-"], {
      steps: [{ readAll: true }, { out: '{"type":"assistant.message_delta","data":{"deltaContent":"got: {{PROMPT}}"}}' }],
      stdin: "from stdin",
    });
    expect(exit.code).toBe(0);
    expect(stdout).toContain("got: from stdin");
  }, TIMEOUT);

  test.concurrent("Ctrl-C cancels the run through the ladder and exits 130", async () => {
    const { exit, stdout } = await odRun(["--agent", "copilot", "--json", "slow"], {
      steps: [{ readAll: true }, { out: '{"type":"assistant.turn_start","data":{}}' }, { hang: true }],
      interruptAfterLine: true,
    });
    expect(exit.code).toBe(130);
    expect(stdout.trim().split("\n").at(-1)).toContain('"status":"canceled"');
  }, TIMEOUT);

  test.concurrent("usage errors exit 2: missing --agent, unknown agent, missing folder", async () => {
    expect((await odRun(["hello"], { steps: [] })).exit.code).toBe(2);
    const unknown = await odRun(["--agent", "nope", "hello"], { steps: [] });
    expect(unknown.exit.code).toBe(2);
    expect(unknown.stderr).toContain("unknown agent 'nope'");
  }, TIMEOUT);

  test.concurrent("a system folder as the project is a usage error, in one line, and saves no project", async () => {
    const refused = await odRun(["--agent", "copilot", "--project", "/etc", "hello"], { steps: [] });
    expect(refused.exit.code).toBe(2);
    expect(refused.stderr).toBe("od: /etc is inside the system folder /etc; choose a folder of your own\n");
    expect(refused.projects).toEqual([]);
  }, TIMEOUT);

  test.concurrent("a refused run in a folder that already is a project keeps that project", async () => {
    const setUp = (project: string) => {
      const data = join(project, "..", "data");
      mkdirSync(data, { mode: 0o700 });
      const store = Store.open(join(data, "od.db"), openBunSqlite);
      try {
        store.projects.create("mine", realpathSync(project));
      } finally {
        store.close();
      }
    };
    const refused = await odRun(["--agent", "nope", "hello"], { steps: [], setUp });
    expect(refused.exit.code).toBe(2);
    expect(refused.projects).toHaveLength(1);
    expect(refused.projects[0]).toEndWith("/project");
  }, TIMEOUT);

  test.concurrent("a whitespace-only prompt is a usage error with one line on stderr", async () => {
    const blank = await odRun(["--agent", "copilot", " \n\t "], { steps: [] });
    expect(blank.exit.code).toBe(2);
    expect(blank.stderr).toBe("od: the prompt is empty or only whitespace\n");
  }, TIMEOUT);

  test.concurrent("an unknown agent is told the known ids, in one line, and saves no project", async () => {
    const unknown = await odRun(["--agent", "nope", "hello"], { steps: [] });
    expect(unknown.exit.code).toBe(2);
    expect(unknown.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toMatch(/known: .*\bcopilot\b/);
    expect(unknown.stderr).toMatch(/\bopencode\b/);
    expect(unknown.projects).toEqual([]);
  }, TIMEOUT);

  test.concurrent("a missing agent names its install command and <ID>_BIN, in one line, and saves no project", async () => {
    const missing = await odRun(["--agent", "opencode", "hello"], { steps: [], systemPath: false });
    expect(missing.exit.code).toBe(2);
    expect(missing.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain("`npm install -g opencode-ai`");
    expect(missing.stderr).toContain("OPENCODE_BIN");
    // The install gives `opencode`; the message must name it, not only the `opencode-cli` od tries first.
    expect(missing.stderr).toContain("`opencode`");
    expect(missing.projects).toEqual([]);
  }, TIMEOUT);
});

// Issue #37: od run --permission-mode.
describe("od run --permission-mode", () => {
  const asking = [
    { readLine: true },
    { canUseTool: { tool_name: "Write", input: { file_path: "hello.txt", content: "hi" }, writeFile: { path: "hello.txt", content: "hi" } } },
    { outFile: join(root, "tests", "fixtures", "claude", "text.jsonl") },
  ];

  test.concurrent("ask without a terminal denies each request, says so on stderr, and the run still ends", async () => {
    const { exit, stdout, stderr } = await odRun(["--agent", "claude", "--permission-mode", "ask", "--json", "write hello.txt"], { shim: "claude", steps: asking });
    expect(exit.code).toBe(0);
    expect(stderr).toContain("od: denied Write (hello.txt): no terminal to ask on");
    const events = stdout.trim().split("\n").map((line) => RunEvent.parse(JSON.parse(line)));
    const agent = events.flatMap((e) => (e.type === "agent" ? [e.event] : []));
    expect(agent.filter((e) => e.type === "approval_resolved")).toEqual([expect.objectContaining({ decision: "deny", by: "user" })]);
    expect(agent.find((e) => e.type === "tool_result")).toMatchObject({ isError: true, content: "od run has no terminal to ask on, so this tool call was denied." });
    expect(events.at(-1)).toMatchObject({ type: "end", status: "succeeded", files: [] });
  }, TIMEOUT);

  test.concurrent("an unknown mode is a usage error; a mode the agent lacks is refused with its modes", async () => {
    const bad = await odRun(["--agent", "claude", "--permission-mode", "yolo", "hi"], { shim: "claude", steps: [] });
    expect(bad.exit.code).toBe(2);
    expect(bad.stderr).toContain("--permission-mode must be one of bypass, ask, read-only");
    const unsupported = await odRun(["--agent", "opencode", "--permission-mode", "ask", "hi"], { shim: "opencode", steps: [] });
    expect(unsupported.exit.code).toBe(2);
    expect(unsupported.stderr).toContain("cannot run in 'ask' mode; its modes: bypass, read-only");
  }, TIMEOUT);
});
