/**
 * A RunService with a skill library, MCP lists and capturing fake CLIs, for the run-level skills/MCP/images tests.
 * Every shim records its argv and the env-borne MCP config into `captureDir` and copies the `--mcp-config` file
 * (which the run deletes afterwards) before handing over to the fake: tests/fakes/fake-cli.ts for line CLIs, or the
 * ACP / pi rpc fakes, whose ledgers record every frame they receive.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { createRunInputs } from "../../server/inputs/run-inputs.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { RunService } from "../../server/runs/run-service.ts";
import type { TreeCopier } from "../../server/skills/copy-tree.ts";
import { SkillLibrary } from "../../server/skills/library.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { Store } from "../../server/store/store.ts";
import { BUN, FAKE_CLI } from "./fake-agents.ts";
import { tempDir } from "./temp.ts";

const FAKES = join(import.meta.dir, "..", "fakes");

/** Which fake a shim hands over to. */
export type FakeKind = "line" | "acp" | "pi";

export type InputsHarness = {
  service: RunService;
  store: Store;
  projectId: string;
  projectDir: string;
  bundledDir: string;
  userSkillsDir: string;
  userMcpPath: string;
  mcpTempDir: string;
  captureDir: string;
  run(request: { agentId: string; message: string; skillIds?: string[]; attachments?: string[] }): Promise<{ runId: string; events: RunEvent[] }>;
  /** argv the shim named `bin` saw on its last start. */
  argv(bin: string): string[];
  /** A captured file (`mcp-config.json`, `OPENCODE_CONFIG_CONTENT`, …), or undefined. */
  captured(name: string): string | undefined;
  /** Records the fake-cli (line) ledger or the protocol fake ledger wrote. */
  ledger(): Record<string, unknown>[];
  [Symbol.asyncDispose](): Promise<void>;
};

export async function inputsHarness(options: {
  defs: readonly RuntimeAgentDef[];
  /** bin name → fake it runs. */
  shims: Record<string, FakeKind>;
  /** fake-cli steps, or the ACP / pi script (without `ledger`). */
  script?: unknown;
  copy?: TreeCopier;
  /** Start projects' own MCP servers without consent (`od run --trust-project-mcp`). */
  trustProjectMcp?: boolean;
}): Promise<InputsHarness> {
  const temp = tempDir("od-inputs-");
  const dir = (name: string) => {
    const path = join(temp.path, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const binDir = dir("bin");
  const captureDir = dir("capture");
  const projectDir = dir("project");
  const bundledDir = dir("bundled");
  const mcpTempDir = dir("mcp-tmp");
  const dataDir = dir("data");
  const userSkillsDir = join(dataDir, "skills");
  const userMcpPath = join(dataDir, "mcp.json");
  const ledgerPath = join(temp.path, "ledger.jsonl");
  const scriptPath = join(temp.path, "script.json");
  const script = options.script ?? [];
  writeFileSync(scriptPath, JSON.stringify(Array.isArray(script) ? script : { ...(script as object), ledger: ledgerPath }));

  for (const [bin, kind] of Object.entries(options.shims)) {
    const exec =
      kind === "line"
        ? `exec "${BUN}" "${FAKE_CLI}" "$@"`
        : `exec "${BUN}" "${join(FAKES, kind === "acp" ? "acp-agent.ts" : "pi-rpc-agent.ts")}" "${scriptPath}"`;
    const shim = `#!/bin/sh
printf '%s\\n' "$@" > "${captureDir}/argv-${bin}"
prev=""
for a in "$@"; do
  if [ "$prev" = "--mcp-config" ]; then cp "$a" "${captureDir}/mcp-config.json"; fi
  prev="$a"
done
if [ -n "$OPENCODE_CONFIG_CONTENT" ]; then printf '%s' "$OPENCODE_CONFIG_CONTENT" > "${captureDir}/OPENCODE_CONFIG_CONTENT"; fi
if [ -n "$MIMOCODE_CONFIG_CONTENT" ]; then printf '%s' "$MIMOCODE_CONFIG_CONTENT" > "${captureDir}/MIMOCODE_CONFIG_CONTENT"; fi
${exec}
`;
    writeFileSync(join(binDir, bin), shim);
    chmodSync(join(binDir, bin), 0o755);
  }

  const env: Record<string, string | undefined> = {
    PATH: `${binDir}:/usr/bin:/bin`,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    FAKE_CLI_SCRIPT: `@${scriptPath}`,
    FAKE_CLI_LEDGER: ledgerPath,
  };
  const store = Store.open(join(dataDir, "od.db"), openBunSqlite);
  const infos = options.defs.map((def) => ({ id: def.id, state: "available", available: true, diagnostics: [] }) as unknown as AgentInfo);
  const skills = new SkillLibrary({ bundled: () => bundledDir, user: userSkillsDir });
  const service = new RunService({
    store,
    defs: options.defs,
    agents: { list: async () => infos, capabilities: () => ({}), liveModels: () => undefined },
    env,
    inputs: createRunInputs({ skills, userMcpPath, tempDir: mcpTempDir, ...(options.copy ? { copy: options.copy } : {}) }),
    ...(options.trustProjectMcp ? { trustProjectMcp: true } : {}),
  });
  const project = store.projects.create("test", projectDir);
  const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);
  return {
    service,
    store,
    projectId: project.id,
    projectDir,
    bundledDir,
    userSkillsDir,
    userMcpPath,
    mcpTempDir,
    captureDir,
    async run(request) {
      const created = await service.create({ projectId: project.id, ...request });
      const events: RunEvent[] = [];
      for await (const event of service.events(created.runId)) events.push(event);
      return { runId: created.runId, events };
    },
    argv: (bin) => (read(join(captureDir, `argv-${bin}`)) ?? "").split("\n").slice(0, -1),
    captured: (name) => read(join(captureDir, name)),
    ledger: () => (read(ledgerPath) ?? "").split("\n").filter(Boolean).map((line) => JSON.parse(line)),
    async [Symbol.asyncDispose]() {
      await service.shutdown();
      store.close();
      temp[Symbol.dispose]();
    },
  };
}

/** The diagnostics of a run, as `[kind, message]`. */
export function diagnostics(events: RunEvent[]): [string, string][] {
  return events.flatMap((e) => (e.type === "diagnostic" ? [[e.kind, e.message] as [string, string]] : []));
}
