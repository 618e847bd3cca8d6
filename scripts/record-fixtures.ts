/**
 * Records real CLI output against our fake model server into tests/fixtures/<cli>/<scenario>.jsonl, with a
 * `<scenario>.meta.json` sidecar (cli, version, argv with placeholders, scenario, exit code), scrubbed so that
 * re-recording gives a reviewable diff. Also records model lists and `--help` texts for capability probes.
 *
 *   node_modules/.bin/bun scripts/record-fixtures.ts [target…] [--scenario name…]
 *
 * Targets: claude claude-partial codex codex-app-server opencode copilot qwen qwen-partial pi (default: all).
 * Never runs qodercli (it dials public addresses).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeModelServer, type FakeModelServer } from "../tests/fakes/model-server.ts";
import { loopbackOnlyEntry } from "../tests/realcli/loopback-only.ts";
import { baseEnv, entryArgv, recipeFor, writeRecipeFiles, type CliRecipe } from "../tests/realcli/recipes.ts";
import { runCliBounded, type BoundedRunResult } from "../tests/realcli/run-cli.ts";
import { folderLiterals, scrubOutput, type Literal } from "../tests/realcli/scrub.ts";
import { ensureRealClis, REAL_CLI_NODE_MODULES } from "../tests/realcli/setup.ts";
import type { RealCliId } from "../tests/realcli/versions.ts";

const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "tests", "fixtures");

/** The recorded scenarios and the prompt that selects each on the fake server. */
const SCENARIO_PROMPTS = {
  text: "Say hello. [[od:text]]",
  thinking: "Think, then answer. [[od:thinking]]",
  write: 'Create the file. [[od:write path=hello.txt content="hello from od"]]',
  shell: "Run the command. [[od:shell cmd=echo od-shell-ok]]",
  error: "This request fails. [[od:status 401]]",
  long: "Answer at length. [[od:long deltas=80]]",
} as const;
type Scenario = keyof typeof SCENARIO_PROMPTS;
const SCENARIOS = Object.keys(SCENARIO_PROMPTS) as Scenario[];

/** One CLI mode to record: its fixture folder, CLI, and how to build the run for a prompt. */
type Target = {
  dir: string;
  cli: RealCliId;
  timeoutMs: number;
  build(recipe: CliRecipe, prompt: string, scenario: Scenario): { args: string[]; stdinText?: string };
};

const claudeUserLine = (prompt: string) =>
  `${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: prompt }] } })}\n`;
const CLAUDE_ARGS = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];

const TARGETS: Target[] = [
  {
    dir: "claude",
    cli: "claude",
    timeoutMs: 60_000,
    build: (recipe, prompt) => ({
      args: [...CLAUDE_ARGS, ...recipe.extraArgs, "--permission-mode", "bypassPermissions"],
      stdinText: claudeUserLine(prompt),
    }),
  },
  {
    dir: "claude-partial",
    cli: "claude",
    timeoutMs: 60_000,
    build: (recipe, prompt) => ({
      args: [...CLAUDE_ARGS, "--include-partial-messages", ...recipe.extraArgs, "--permission-mode", "bypassPermissions"],
      stdinText: claudeUserLine(prompt),
    }),
  },
  {
    dir: "codex",
    cli: "codex",
    timeoutMs: 60_000,
    build: (recipe) => ({
      args: ["exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write", "-C", "<CWD>", ...recipe.extraArgs],
      stdinText: "<PROMPT>",
    }),
  },
  {
    dir: "opencode",
    cli: "opencode",
    timeoutMs: 120_000,
    build: (recipe, _prompt, scenario) => ({
      args: ["run", "--format", "json", ...(scenario === "thinking" ? ["--thinking"] : []), ...recipe.extraArgs],
      stdinText: "<PROMPT>",
    }),
  },
  {
    dir: "copilot",
    cli: "copilot",
    timeoutMs: 60_000,
    build: (recipe) => ({ args: ["--allow-all-tools", "--output-format", "json", ...recipe.extraArgs], stdinText: "<PROMPT>" }),
  },
  {
    dir: "qwen",
    cli: "qwen",
    timeoutMs: 90_000,
    build: (recipe, prompt) => ({ args: [...recipe.extraArgs, "-o", "stream-json", "--approval-mode", "yolo", prompt] }),
  },
  {
    dir: "qwen-partial",
    cli: "qwen",
    timeoutMs: 90_000,
    build: (recipe, prompt) => ({
      args: [...recipe.extraArgs, "-o", "stream-json", "--include-partial-messages", "--approval-mode", "yolo", prompt],
    }),
  },
];

/** Non-conversation outputs: model lists and help texts, stored as `<file>` plus `<file stem>.meta.json`. */
type Capture = { dir: string; cli: RealCliId; file: string; args: string[]; withExtraArgs?: boolean };
const CAPTURES: Capture[] = [
  { dir: "codex", cli: "codex", file: "debug-models.json", args: ["debug", "models"] },
  { dir: "opencode", cli: "opencode", file: "models.txt", args: ["models"] },
  { dir: "opencode", cli: "opencode", file: "models-verbose.txt", args: ["models", "--verbose"] },
  { dir: "opencode", cli: "opencode", file: "run-help.txt", args: ["run", "--help"] },
  { dir: "pi", cli: "pi", file: "list-models.txt", args: ["--list-models"] },
  ...(["claude", "codex", "opencode", "pi", "qwen", "copilot"] as const).map((cli) => ({ dir: cli, cli, file: "help.txt", args: ["--help"] })),
];

type Sandbox = { root: string; home: string; cwd: string; literals: Literal[]; fakeUrl: string };

function makeSandbox(fake: FakeModelServer): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "od-rec-")));
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const literals: Literal[] = [
    ...folderLiterals({ "<CWD>": cwd, "<HOME>": home, "<TMP>": root }),
    { value: REAL_CLI_NODE_MODULES, placeholder: "<NODE_MODULES>" },
    { value: fake.url, placeholder: "http://127.0.0.1:<PORT>" },
  ];
  return { root, home, cwd, literals, fakeUrl: fake.url };
}

function writeFixture(dir: string, file: string, content: string, meta: Record<string, unknown>): void {
  const folder = join(FIXTURES_DIR, dir);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, file), content);
  const stem = file.replace(/\.(jsonl|json|txt)$/, "");
  writeFileSync(join(folder, `${stem}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
}

function describe(result: BoundedRunResult): string {
  const exit = result.exit.signal ?? `rc ${result.exit.code}`;
  return `${exit}, ${result.seconds} s, ${result.stdout.split("\n").filter(Boolean).length} lines${result.timedOut ? ", TIMED OUT" : ""}${result.leftovers ? `, ${result.leftovers} leftovers killed` : ""}`;
}

/**
 * One bounded run of the recipe's CLI with `args`, in a loopback-only network namespace (as every real CLI the tests
 * run: tests/realcli/loopback-only.ts). The fixture's meta keeps the CLI's own command line.
 */
async function runIsolated(box: Sandbox, recipe: CliRecipe, args: string[], options: { stdinText?: string; timeoutMs: number }): Promise<BoundedRunResult> {
  const isolated = loopbackOnlyEntry(box.root, recipe.id, entryArgv(recipe), box.fakeUrl);
  try {
    return await runCliBounded({ argv: [isolated.entry, ...args], env: baseEnv(box.home, recipe), cwd: box.cwd, timeoutMs: options.timeoutMs, ...(options.stdinText !== undefined ? { stdinText: options.stdinText } : {}) });
  } finally {
    isolated.close();
  }
}

async function recordScenario(fake: FakeModelServer, target: Target, scenario: Scenario): Promise<string> {
  const box = makeSandbox(fake);
  try {
    const recipe = recipeFor(target.cli, fake.url, box.home);
    writeRecipeFiles(recipe, box.home);
    const prompt = SCENARIO_PROMPTS[scenario];
    const built = target.build(recipe, prompt, scenario);
    const args = built.args.map((arg) => (arg === "<CWD>" ? box.cwd : arg));
    const stdinText = built.stdinText === "<PROMPT>" ? `${prompt}\n` : built.stdinText;
    const argv = [...entryArgv(recipe), ...args];
    const result = await runIsolated(box, recipe, args, { stdinText, timeoutMs: target.timeoutMs });
    const summary = `${target.dir}/${scenario}: ${describe(result)}`;
    if (result.timedOut || result.stdout.trim() === "") {
      return `${summary} — NOT written. stderr: ${result.stderr.trim().split("\n").slice(-5).join(" | ")}`;
    }
    const meta = {
      cli: target.cli,
      version: recipe.version,
      command: argv.map((arg) => scrubOutput(arg, box.literals)),
      stdin: stdinText === undefined ? null : scrubOutput(stdinText, box.literals),
      scenario,
      exitCode: result.exit.code,
      recordedWith: "fake-model-server",
    };
    writeFixture(target.dir, `${scenario}.jsonl`, scrubOutput(result.stdout, box.literals), meta);
    return summary;
  } finally {
    rmSync(box.root, { recursive: true, force: true });
  }
}

async function recordCapture(fake: FakeModelServer, capture: Capture): Promise<string> {
  const box = makeSandbox(fake);
  try {
    const recipe = recipeFor(capture.cli, fake.url, box.home);
    writeRecipeFiles(recipe, box.home);
    const argv = [...entryArgv(recipe), ...capture.args];
    const result = await runIsolated(box, recipe, capture.args, { timeoutMs: 60_000 });
    const summary = `${capture.dir}/${capture.file}: ${describe(result)}`;
    if (result.timedOut || (result.stdout.trim() === "" && result.stderr.trim() === "")) return `${summary} — NOT written`;
    // Some CLIs print help on stderr; keep whichever stream has it.
    const output = result.stdout.trim() === "" ? result.stderr : result.stdout;
    const meta = {
      cli: capture.cli,
      version: recipe.version,
      command: argv.map((arg) => scrubOutput(arg, box.literals)),
      exitCode: result.exit.code,
      stream: output === result.stdout ? "stdout" : "stderr",
      recordedWith: "fake-model-server",
    };
    writeFixture(capture.dir, capture.file, scrubOutput(output, box.literals), meta);
    return summary;
  } finally {
    rmSync(box.root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const scenarioIndex = argv.indexOf("--scenario");
  const wantedScenarios = scenarioIndex >= 0 ? (argv.slice(scenarioIndex + 1) as Scenario[]) : SCENARIOS;
  const wantedDirs = (scenarioIndex >= 0 ? argv.slice(0, scenarioIndex) : argv).filter((arg) => !arg.startsWith("-"));
  const selected = (dir: string) => wantedDirs.length === 0 || wantedDirs.includes(dir);

  const install = await ensureRealClis();
  console.log(`real CLIs: ${install.reused ? "reused" : "installed"} (${install.seconds} s)`);
  const fake = await startFakeModelServer();
  const lines: string[] = [];
  try {
    for (const target of TARGETS.filter((item) => selected(item.dir))) {
      for (const scenario of wantedScenarios.filter((name) => SCENARIOS.includes(name))) {
        const line = await recordScenario(fake, target, scenario);
        console.log(line);
        lines.push(line);
      }
    }
    if (selected("codex-app-server")) {
      const { recordCodexAppServer } = await import("../tests/realcli/codex-app-server-recorder.ts");
      for (const scenario of wantedScenarios.filter((name) => SCENARIOS.includes(name))) {
        const line = await recordCodexAppServer(fake, scenario, SCENARIO_PROMPTS[scenario], FIXTURES_DIR);
        console.log(line);
        lines.push(line);
      }
    }
    for (const capture of CAPTURES.filter((item) => selected(item.dir) && scenarioIndex < 0)) {
      const line = await recordCapture(fake, capture);
      console.log(line);
      lines.push(line);
    }
  } finally {
    await fake.stop();
  }
  const failed = lines.filter((line) => line.includes("NOT written"));
  if (failed.length > 0) {
    console.error(`${failed.length} recording(s) failed`);
    process.exit(1);
  }
}

await main();
