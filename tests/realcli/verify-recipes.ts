/**
 * Smoke-checks every recipe: one `text` turn per pinned CLI in its simplest headless mode (ACP for the ACP-only
 * adapters) against the fake server; prints exit, time and whether the fake's answer came back. Not a test
 * suite (the od-driven real-CLI suite is); a quick way to see that the pins and recipes still work.
 *
 *   node_modules/.bin/bun tests/realcli/verify-recipes.ts [cli…]
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.ts";
import { loopbackOnlyEntry } from "./loopback-only.ts";
import { baseEnv, entryArgv, recipeFor, writeRecipeFiles, type CliRecipe } from "./recipes.ts";
import { killTagged, runCliBounded, RUN_TAG_VARIABLE } from "./run-cli.ts";
import { ensureRealClis } from "./setup.ts";
import { REAL_CLI_IDS, type RealCliId } from "./versions.ts";

const PROMPT = "Say hello. [[od:text]]";
const EXPECTED = "od-fake: user_messages=1";

/** argv (after the entry point) and stdin for a one-shot text turn. */
function oneShot(id: RealCliId, recipe: CliRecipe): { args: string[]; stdinText?: string } | undefined {
  switch (id) {
    case "claude":
      return {
        args: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"],
        stdinText: `${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: PROMPT }] } })}\n`,
      };
    case "codex":
      return { args: ["exec", "--json", "--skip-git-repo-check", PROMPT] };
    case "opencode":
    case "kilo":
      return { args: ["run", "--format", "json"], stdinText: `${PROMPT}\n` };
    case "pi":
      return { args: ["-p", "--mode", "json", ...recipe.extraArgs, PROMPT] };
    case "qwen":
      return { args: [...recipe.extraArgs, "-o", "stream-json", "--approval-mode", "yolo", PROMPT] };
    case "copilot":
      return { args: ["-p", PROMPT, "--output-format", "json", "--allow-all-tools", ...recipe.extraArgs] };
    default:
      return undefined;
  }
}

/** initialize → session/new → session/prompt over ACP; returns the streamed text and the stop reason. */
async function acpTurn(argv: string[], env: Record<string, string>, cwd: string): Promise<{ text: string; stopReason?: string; error?: string }> {
  const tag = `verify-${process.pid}-${Date.now()}`;
  const child = await spawnChild({ argv, env: { ...env, [RUN_TAG_VARIABLE]: tag }, cwd, stdin: "pipe", ownProcessGroup: true });
  const pending = new Map<number, (frame: Record<string, unknown>) => void>();
  let text = "";
  const send = (frame: Record<string, unknown>) => child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", ...frame })}\n`);
  const request = (id: number, method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve) => {
      pending.set(id, resolve);
      void send({ id, method, params });
    });
  void (async () => {
    for await (const _ of child.stderr) {
      // drained
    }
  })();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        let frame: Record<string, unknown>;
        try {
          frame = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        const params = frame.params as { update?: { sessionUpdate?: string; content?: { text?: string } }; options?: { optionId: string; kind?: string }[] } | undefined;
        if (frame.method === "session/update" && params?.update?.sessionUpdate === "agent_message_chunk") text += params.update.content?.text ?? "";
        if (frame.method === "session/request_permission" && frame.id !== undefined) {
          const option = params?.options?.find((item) => item.kind?.startsWith("allow")) ?? params?.options?.[0];
          void send({ id: frame.id, result: { outcome: { outcome: "selected", optionId: option?.optionId } } });
        } else if (typeof frame.method === "string" && frame.id !== undefined) {
          void send({ id: frame.id, error: { code: -32601, message: "not supported by the verifier" } });
        } else if (typeof frame.id === "number" && !frame.method) {
          pending.get(frame.id)?.(frame);
        }
      }
    }
  })();
  const timeout = new Promise<Record<string, unknown>>((resolve) => setTimeout(() => resolve({ error: { message: "timeout" } }), 90_000));
  try {
    const init = await Promise.race([
      request(1, "initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: { name: "od-verify", version: "1" } }),
      timeout,
    ]);
    if (init.error) return { text, error: JSON.stringify(init.error) };
    const session = await Promise.race([request(2, "session/new", { cwd, mcpServers: [] }), timeout]);
    const sessionId = (session.result as { sessionId?: string } | undefined)?.sessionId;
    if (!sessionId) return { text, error: JSON.stringify(session.error ?? session) };
    const prompt = await Promise.race([request(3, "session/prompt", { sessionId, prompt: [{ type: "text", text: PROMPT }] }), timeout]);
    return { text, stopReason: (prompt.result as { stopReason?: string } | undefined)?.stopReason, error: prompt.error ? JSON.stringify(prompt.error) : undefined };
  } finally {
    child.stdin?.end();
    child.kill("SIGTERM", { group: true });
    const exited = await Promise.race([child.exited, new Promise<"stuck">((resolve) => setTimeout(() => resolve("stuck"), 3000))]);
    if (exited === "stuck") child.kill("SIGKILL", { group: true });
    killTagged(tag);
  }
}

async function verify(fake: FakeModelServer, id: RealCliId): Promise<string> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "od-verify-")));
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(cwd, { recursive: true });
  let isolation: { entry: string; close(): void } | undefined;
  try {
    const recipe = recipeFor(id, fake.url, home);
    writeRecipeFiles(recipe, home);
    const env = baseEnv(home, recipe);
    // In a loopback-only network namespace, as every real CLI here (loopback-only.ts).
    isolation = loopbackOnlyEntry(root, id, entryArgv(recipe), fake.url);
    const entry = [isolation.entry];
    const started = performance.now();
    const plan = oneShot(id, recipe);
    if (!plan) {
      const turn = await acpTurn([...entry, ...recipe.extraArgs], env, cwd);
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      const ok = turn.stopReason === "end_turn" && turn.text.includes(EXPECTED);
      return `${ok ? "ok  " : "FAIL"} ${id} (ACP): stopReason ${turn.stopReason}, ${seconds} s${turn.error ? `, error ${turn.error}` : ""}`;
    }
    const result = await runCliBounded({ argv: [...entry, ...plan.args], env, cwd, stdinText: plan.stdinText, timeoutMs: 120_000 });
    const ok = result.exit.code === 0 && result.stdout.includes(EXPECTED);
    const tail = ok ? "" : ` stderr: ${result.stderr.trim().split("\n").slice(-3).join(" | ")}`;
    return `${ok ? "ok  " : "FAIL"} ${id}: rc ${result.exit.code}, ${result.seconds} s, answer ${result.stdout.includes(EXPECTED) ? "seen" : "missing"}${result.leftovers ? `, ${result.leftovers} leftovers killed` : ""}${tail}`;
  } finally {
    isolation?.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const wanted = process.argv.slice(2) as RealCliId[];
await ensureRealClis();
const fake = await startFakeModelServer();
let failures = 0;
try {
  for (const id of wanted.length > 0 ? wanted : REAL_CLI_IDS) {
    const line = await verify(fake, id);
    if (line.startsWith("FAIL")) failures += 1;
    console.log(line);
  }
} finally {
  await fake.stop();
}
process.exit(failures > 0 ? 1 : 0);
