/** `od agents`: what detection finds on this machine, as a table, as JSON, or one agent in detail. */
import { existsSync } from "node:fs";
import type { AgentInfo } from "../contracts/agents.ts";
import type { AppConfig } from "../contracts/app-config.ts";
import type { AgentCatalog } from "../runtimes/catalog.ts";
import type { CommandIO, CommandSpec, ParsedArgs } from "./command.ts";
import type { ServeRuntime } from "./serve-command.ts";
import type { SqliteOpener } from "../store/sqlite.ts";
import { dataPaths, resolveDataDir } from "../paths.ts";
import type { Machine } from "../machines/machine.ts";
import { parseMachineLocation } from "../machines/machine-url.ts";

function slowestProbe(agent: AgentInfo): string {
  const entries = Object.entries(agent.probeMs).filter((entry): entry is [string, number] => typeof entry[1] === "number");
  if (!entries.length) return "-";
  const [name, ms] = entries.reduce((a, b) => (b[1] > a[1] ? b : a));
  return `${name} ${ms}ms`;
}

/** Installed agents first: ready ones, then found but not usable, then still probing, then not found. */
function installedRank(agent: AgentInfo): number {
  if (agent.available) return 0;
  if (agent.path) return 1;
  return agent.state === "probing" ? 2 : 3;
}

/** The registry's order within each rank (Array.prototype.sort is stable). */
export function sortInstalledFirst(agents: readonly AgentInfo[]): AgentInfo[] {
  return [...agents].sort((a, b) => installedRank(a) - installedRank(b));
}

/**
 * Why an agent cannot run, in one cell: the first diagnostic that blocks it and the quickest fix we know
 * (the exact install or login command, else the install or docs page).
 */
export function unavailableReason(agent: AgentInfo): string {
  if (agent.available) return "-";
  const blocking = agent.diagnostics.find((diagnostic) => diagnostic.severity !== "info") ?? agent.diagnostics[0];
  const why = blocking ? blocking.reason : agent.state;
  const command = blocking?.fixActions.find((action) => action.kind === "copyCommand");
  const fix = command?.kind === "copyCommand" ? `run: ${command.command}` : agent.installUrl ?? agent.docsUrl;
  return fix ? `${why}; ${fix}` : why;
}

/** A fixed-width table, installed agents first: id, state, version, path, auth, models source, slowest probe, why not available. */
export function formatAgentTable(agents: readonly AgentInfo[]): string {
  const header = ["ID", "STATE", "VERSION", "PATH", "AUTH", "MODELS", "SLOWEST PROBE", "WHY NOT AVAILABLE"];
  const rows = sortInstalledFirst(agents).map((agent) => [
    agent.id,
    agent.state,
    agent.version ?? "-",
    agent.path ?? "-",
    agent.authStatus ?? "-",
    `${agent.modelsSource} (${agent.models.length})`,
    slowestProbe(agent),
    unavailableReason(agent),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

/** Everything about one agent, human-readable. */
export function formatAgentDetail(agent: AgentInfo): string {
  const lines = [
    `${agent.name} (${agent.id})`,
    `  state:        ${agent.state}`,
    `  executable:   ${agent.path ?? `${agent.bin} (not found)`}`,
    `  version:      ${agent.version ?? "-"}`,
    `  auth:         ${agent.authStatus ?? "not probed"}${agent.authMessage ? ` — ${agent.authMessage}` : ""}`,
    `  stream:       ${agent.streamFormat}${agent.eventParser ? ` / ${agent.eventParser}` : ""}`,
    `  models (${agent.modelsSource}): ${agent.models.map((model) => model.id).join(", ")}`,
  ];
  if (agent.reasoningOptions?.length) lines.push(`  reasoning:    ${agent.reasoningOptions.map((choice) => choice.id).join(", ")}`);
  const caps = Object.entries(agent.capabilities);
  if (caps.length) lines.push(`  capabilities: ${caps.map(([key, on]) => `${key}=${on ? "yes" : "no"}`).join(", ")}`);
  const timings = Object.entries(agent.probeMs).map(([name, ms]) => `${name} ${ms}ms`);
  if (timings.length) lines.push(`  probes:       ${timings.join(", ")}`);
  for (const diagnostic of agent.diagnostics) {
    lines.push(`  ${diagnostic.severity}: [${diagnostic.reason}] ${diagnostic.message}`);
    if (diagnostic.detail) lines.push(`    ${diagnostic.detail}`);
    for (const action of diagnostic.fixActions) if (action.kind === "copyCommand") lines.push(`    run: ${action.command}`);
  }
  return lines.join("\n") + "\n";
}

/** Build the command over a catalog factory (tests inject fake defs and env). */
export function createAgentsCommand(makeCatalog: (io: CommandIO, dataDir?: string) => AgentCatalog | Promise<AgentCatalog>): CommandSpec {
  return {
    name: "agents",
    summary: "List the coding-agent CLIs detected on this machine",
    details: "With an id, show one agent in detail. --json prints the AgentInfo array (or object) instead.",
    flags: [
      { name: "json", type: "boolean", description: "Print JSON instead of a table" },
      { name: "on", type: "string", valueName: "URL", description: "Detect on another machine or in a container: ssh://[user@]host[:port][/path] or docker://CONTAINER[/path]" },
      { name: "data-dir", type: "string", valueName: "DIR", description: "whose settings and last results to use (default $OD_DATA_DIR or ~/.od)" },
    ],
    positionals: [{ name: "id", description: "Agent id to show in detail", optional: true }],
    async run(args: ParsedArgs, io: CommandIO): Promise<number> {
      const on = typeof args.flags.on === "string" ? args.flags.on : undefined;
      if (on !== undefined) {
        try {
          // Another machine or a container; a local path names none.
          parseMachineLocation(on);
        } catch (error) {
          io.stderr(`od agents: ${(error as Error).message}\n`);
          return 2;
        }
      }
      const catalog = await makeCatalog(io, typeof args.flags["data-dir"] === "string" ? args.flags["data-dir"] : undefined);
      try {
        return await printAgents(catalog, args, io, on === undefined ? undefined : catalog.machineAt(on));
      } finally {
        // CLIs still probing at the deadline were reported as such; their probes end with this command.
        catalog.close();
      }
    },
  };
}

/** The table, the JSON list, or one agent, from the catalog's list (which waits at most its deadline). */
async function printAgents(catalog: AgentCatalog, args: ParsedArgs, io: CommandIO, machine?: Machine): Promise<number> {
  const id = args.positionals[0];
  const json = args.flags.json === true;
  if (id !== undefined && !catalog.defs.some((def) => def.id === id)) {
    io.stderr(`od agents: unknown agent id "${id}" (known: ${catalog.defs.map((def) => def.id).join(", ")})\n`);
    return 2;
  }
  const agents = machine ? await catalog.detectOn(machine) : await catalog.list();
  // A machine that could not be reached has nothing to list: one line that says so and why, not a row per agent.
  const unreached = machine ? unreachedReason(agents) : undefined;
  if (machine && unreached !== undefined) {
    io.stderr(`od agents: cannot reach ${machine.label}${unreached ? `: ${unreached}` : ""}\n`);
    return 1;
  }
  if (id !== undefined) {
    const agent = agents.find((entry) => entry.id === id) as AgentInfo;
    io.stdout(json ? `${JSON.stringify(agent, null, 2)}\n` : formatAgentDetail(agent));
    return 0;
  }
  if (json) {
    io.stdout(`${JSON.stringify(agents, null, 2)}\n`);
    return 0;
  }
  io.stdout(formatAgentTable(agents));
  for (const problem of catalog.profileDiagnostics) io.stderr(`warning: ${problem.message}\n`);
  return 0;
}

/**
 * `od agents` over the real registry and the process environment, with what the user configured per agent and per
 * machine (`agentCliEnv`, `machineEnv`, `machineProbeTimeouts`, from the data dir's database when there is one) and
 * the last-good results the daemon and earlier `od agents` left in the data dir.
 */
export function agentsCommand(runtime: Pick<ServeRuntime, "openSqlite">): CommandSpec {
  return createAgentsCommand(async (io, dataDir) => {
    // Loaded when the command runs, so other commands (and `od serve`'s first request) never pay for the catalog.
    const { createAgentCatalog } = await import("../runtimes/catalog.ts");
    const folder = resolveDataDir(io.env, dataDir);
    const paths = dataPaths(folder);
    const config = await readAppConfig(paths.database, runtime.openSqlite);
    // The data dir's own local profiles (agents.local.json), as the services read them for its runs.
    return createAgentCatalog({ ...io.env, OD_DATA_DIR: folder }, {
      configuredEnv: (id) => config.agentCliEnv?.[id],
      machineEnv: (key) => config.machineEnv?.[key],
      machineProbeTimeouts: (key) => config.machineProbeTimeouts?.[key],
      cacheFile: paths.agentCache,
    });
  });
}

/** The app config; empty when there is no database yet or it cannot be opened. */
async function readAppConfig(database: string, openSqlite: SqliteOpener): Promise<AppConfig> {
  if (!existsSync(database)) return {};
  const { Store } = await import("../store/store.ts");
  try {
    const store = Store.open(database, openSqlite);
    try {
      return store.appConfig.get();
    } finally {
      store.close();
    }
  } catch {
    return {};
  }
}

/** Why no agent could be probed there (every one carries the location's `remote-unreachable` diagnostic), else undefined. */
function unreachedReason(agents: readonly AgentInfo[]): string | undefined {
  if (!agents.length || !agents.every((agent) => agent.diagnostics[0]?.reason === "remote-unreachable")) return undefined;
  return agents[0]!.diagnostics[0]!.detail ?? "";
}
