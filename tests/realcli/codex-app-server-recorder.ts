/**
 * Records one `codex app-server` turn (real-clis.md §3.2): initialize → initialized → thread/start →
 * turn/start, then every frame up to `turn/completed`, written raw (scrubbed) to
 * tests/fixtures/codex-app-server/<scenario>.jsonl. Used by scripts/record-fixtures.ts.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import type { FakeModelServer } from "../fakes/model-server.ts";
import { loopbackOnlyEntry } from "./loopback-only.ts";
import { baseEnv, entryArgv, recipeFor, writeRecipeFiles } from "./recipes.ts";
import { killTagged, RUN_TAG_VARIABLE } from "./run-cli.ts";
import { folderLiterals, scrubOutput, type Literal } from "./scrub.ts";
import { REAL_CLI_NODE_MODULES } from "./setup.ts";

type Frame = { id?: unknown; method?: unknown; result?: unknown; error?: unknown };

const TURN_TIMEOUT_MS = 60_000;

export async function recordCodexAppServer(fake: FakeModelServer, scenario: string, prompt: string, fixturesDir: string): Promise<string> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "od-rec-")));
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(cwd, { recursive: true });
  const literals: Literal[] = [
    ...folderLiterals({ "<CWD>": cwd, "<HOME>": home, "<TMP>": root }),
    { value: REAL_CLI_NODE_MODULES, placeholder: "<NODE_MODULES>" },
    { value: fake.url, placeholder: "http://127.0.0.1:<PORT>" },
  ];
  const recipe = recipeFor("codex", fake.url, home);
  writeRecipeFiles(recipe, home);
  const tag = `app-server-${process.pid}-${Date.now()}`;
  // In a loopback-only network namespace, as every real CLI here (loopback-only.ts).
  const isolated = loopbackOnlyEntry(root, "codex", entryArgv(recipe), fake.url);
  const argv = [isolated.entry, "app-server"];
  const started = performance.now();
  const child = await spawnChild({ argv, env: baseEnv(home, recipe, { [RUN_TAG_VARIABLE]: tag }), cwd, stdin: "pipe", ownProcessGroup: true });
  const lines: string[] = [];
  const sent: unknown[] = [];
  const waiters: { match: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = [];
  const send = async (frame: Record<string, unknown>) => {
    sent.push(frame);
    await child.stdin?.write(`${JSON.stringify(frame)}\n`);
  };
  const waitFor = (match: (frame: Frame) => boolean) => new Promise<Frame>((resolve) => waiters.push({ match, resolve }));

  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
        if (!line.trim()) continue;
        lines.push(line);
        let frame: Frame;
        try {
          frame = JSON.parse(line) as Frame;
        } catch {
          continue;
        }
        if (frame.id !== undefined && typeof frame.method === "string") {
          // A server request (approval, …): none are expected with approvalPolicy "never"; refuse politely.
          void send({ id: frame.id, error: { code: -32601, message: "od recorder does not handle server requests" } });
        }
        for (const waiter of [...waiters]) {
          if (waiter.match(frame)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(frame);
          }
        }
      }
    }
  })();
  void (async () => {
    for await (const _ of child.stderr) {
      // Drained so the pipe never fills; codex logs config warnings here.
    }
  })();

  const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), TURN_TIMEOUT_MS));
  let outcome = "completed";
  try {
    const steps = (async () => {
      await send({ id: 1, method: "initialize", params: { clientInfo: { name: "od-recorder", title: null, version: "1" }, capabilities: null } });
      await waitFor((frame) => frame.id === 1);
      await send({ method: "initialized" });
      await send({ id: 2, method: "thread/start", params: { cwd, approvalPolicy: "never", sandbox: "workspace-write" } });
      const thread = (await waitFor((frame) => frame.id === 2)).result as { thread?: { id?: string } } | undefined;
      const completed = waitFor((frame) => frame.method === "turn/completed");
      await send({ id: 3, method: "turn/start", params: { threadId: thread?.thread?.id, input: [{ type: "text", text: prompt, text_elements: [] }] } });
      await completed;
    })();
    if ((await Promise.race([steps, timeout])) === "timeout") outcome = "TIMED OUT";
  } finally {
    child.stdin?.end();
    const exited = await Promise.race([child.exited, new Promise<"stuck">((resolve) => setTimeout(() => resolve("stuck"), 5000))]);
    if (exited === "stuck") child.kill("SIGKILL", { group: true });
    await child.exited;
    await reading;
    child.kill("SIGKILL", { group: true });
    killTagged(tag);
    isolated.close();
    rmSync(root, { recursive: true, force: true });
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const summary = `codex-app-server/${scenario}: ${outcome}, ${seconds} s, ${lines.length} lines`;
  if (outcome !== "completed") return `${summary} — NOT written`;
  const folder = join(fixturesDir, "codex-app-server");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${scenario}.jsonl`), scrubOutput(`${lines.join("\n")}\n`, literals));
  const meta = {
    cli: "codex",
    version: recipe.version,
    // The CLI's own command line (it ran behind the loopback-only shim).
    command: [...entryArgv(recipe), "app-server"].map((arg) => scrubOutput(arg, literals)),
    sent: JSON.parse(scrubOutput(JSON.stringify(sent), literals)) as unknown,
    scenario,
    recordedWith: "fake-model-server",
  };
  writeFileSync(join(folder, `${scenario}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
  return summary;
}
