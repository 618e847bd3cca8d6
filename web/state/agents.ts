/**
 * The agent inventory of one machine. This one: cards stream in from `POST /api/agents/rescan?stream=1` as each probe
 * settles (then `done`), with the plain list as a fallback. Another machine or a container (a remote project's):
 * `GET /api/agents?location=` probes there. Grouped for Settings and filtered for the picker.
 */
import { computed, signal, type ReadonlySignal } from "@preact/signals";
import type { AgentInfo, AgentListResponse } from "../../server/contracts/agents.ts";
import { errorMessage, type Api } from "../api/client.ts";
import { readSseFrames } from "../api/sse.ts";

/** A page load reuses a probe pass this recent instead of probing every CLI again. */
const PAGE_LOAD_MAX_AGE_MS = 30_000;

/** How many answers a page asks for while another machine's CLIs are still being probed there (each at the detection deadline). */
const REMOTE_PROBING_ROUNDS = 12;

/** The CLIs an empty state suggests first (the ones its text names), in this order; the rest follow by name. */
export const FEATURED_AGENT_IDS = ["claude", "codex", "opencode", "copilot", "cursor-agent", "pi"];

export type AgentsLoad = "idle" | "loading" | "done" | "error";

/** An install or login command an empty state can offer, with the agent it is for. */
export interface SuggestedCommand {
  agentId: string;
  agentName: string;
  command: string;
}

/**
 * What the page reads of an agent inventory, whichever machine it is of (`project-agents.ts` follows the open
 * project's).
 */
export interface AgentsView {
  agents: ReadonlySignal<AgentInfo[]>;
  load: ReadonlySignal<AgentsLoad>;
  error: ReadonlySignal<string | null>;
  rescanning: ReadonlySignal<boolean>;
  /** While a rescan of this machine streams: how many agents have settled, of how many were listed before it. */
  rescanProgress: ReadonlySignal<{ settled: number; total: number } | null>;
  groups: ReadonlySignal<{ installed: AgentInfo[]; setupRequired: AgentInfo[]; notInstalled: AgentInfo[] }>;
  available: ReadonlySignal<AgentInfo[]>;
  probing: ReadonlySignal<boolean>;
  pickable: ReadonlySignal<AgentInfo[]>;
  suggestedCommands: ReadonlySignal<SuggestedCommand[]>;
  installSuggestions: ReadonlySignal<SuggestedCommand[]>;
  /** Where these agents were looked for: "this machine", a host, or "container NAME". */
  where: string;
  refresh(): Promise<void>;
  rescan(): Promise<void>;
  byId(id: string | null | undefined): AgentInfo | undefined;
}

/** `machine`: a machine or container URL (`ssh://[user@]host[:port]`, `docker://NAME`); this machine when absent. */
export function createAgentsModel(api: Api, machine?: string) {
  const agents = signal<AgentInfo[]>([], { name: "agents.list" });
  const load = signal<AgentsLoad>("idle", { name: "agents.load" });
  const error = signal<string | null>(null, { name: "agents.error" });
  const rescanning = signal(false, { name: "agents.rescanning" });
  const rescanProgress = signal<{ settled: number; total: number } | null>(null, { name: "agents.rescanProgress" });
  let abort: AbortController | null = null;

  // Cards arrive in the order their probes settle (a missing CLI settles first), so each group is sorted by name:
  // the list reads the same on every load.
  const groups = computed(
    () => {
      const sorted = [...agents.value].sort(byName);
      return {
        installed: sorted.filter((a) => a.state === "available"),
        setupRequired: sorted.filter((a) => a.state === "setup-required"),
        notInstalled: sorted.filter((a) => a.state === "unavailable"),
      };
    },
    { name: "agents.groups" },
  );
  const available = computed(() => groups.value.installed, { name: "agents.available" });
  /** Some CLI's probes are still running (its result follows): no "none was found" yet. */
  const probing = computed(() => agents.value.some((a) => a.state === "probing"), { name: "agents.probing" });
  /** What the agent picker offers: installed agents first, then the ones a setup step would make usable. */
  const pickable = computed(() => [...groups.value.installed, ...groups.value.setupRequired], { name: "agents.pickable" });
  /** Copyable commands from the diagnostics of agents that are not usable yet (for the "install one" state). */
  const suggestedCommands = computed(
    () =>
      [...groups.value.setupRequired, ...groups.value.notInstalled].flatMap((a) =>
        copyCommands(a).map((command) => ({ agentId: a.id, agentName: a.name, command })),
      ),
    { name: "agents.suggestedCommands" },
  );
  /** The first command of each agent that is not usable yet, the featured CLIs first (for the "install one" state). */
  const installSuggestions = computed(
    () => {
      const rank = (id: string) => (FEATURED_AGENT_IDS.includes(id) ? FEATURED_AGENT_IDS.indexOf(id) : FEATURED_AGENT_IDS.length);
      const firstPerAgent = suggestedCommands.value.filter((c, i, all) => all.findIndex((o) => o.agentId === c.agentId) === i);
      return firstPerAgent.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c.agentId) - rank(b.c.agentId) || a.i - b.i).map(({ c }) => c);
    },
    { name: "agents.installSuggestions" },
  );

  function upsert(agent: AgentInfo): void {
    const list = agents.peek();
    const index = list.findIndex((a) => a.id === agent.id);
    agents.value = index < 0 ? [...list, agent] : list.map((a, i) => (i === index ? agent : a));
  }

  /** A new load: the one still going is abandoned (its answer is ignored), and the inventory says it is loading. */
  function beginLoad(): AbortController {
    abort?.abort();
    const controller = new AbortController();
    abort = controller;
    load.value = "loading";
    error.value = null;
    return controller;
  }

  /**
   * Another machine's agents, probed there now. The answer comes at the detection deadline; a CLI whose probes there
   * outlast it comes back as still probing. The page shows what it has from the first answer on, and asks again in
   * the background (a later answer's result replaces "still probing"; a settled result is never put back to
   * probing) until every CLI has its result, or `REMOTE_PROBING_ROUNDS` answers later.
   */
  async function refreshThere(url: string): Promise<void> {
    const controller = beginLoad();
    try {
      for (let round = 1; ; round++) {
        const list = (await api.get<AgentListResponse>(`/api/agents?location=${encodeURIComponent(url)}`)).agents;
        if (controller.signal.aborted) return;
        agents.value = round === 1 ? list : settledFirst(agents.peek(), list);
        load.value = "done";
        if (round >= REMOTE_PROBING_ROUNDS || !agents.peek().some((agent) => agent.state === "probing")) break;
      }
    } catch (listError) {
      if (controller.signal.aborted) return;
      // A later round's failure keeps what the earlier ones found.
      if (load.peek() === "done") return;
      error.value = errorMessage(listError);
      load.value = "error";
    }
  }

  /** Streams cards in; falls back to the plain list if the stream fails or ends without `done`. */
  async function refresh(): Promise<void> {
    if (machine) return refreshThere(machine);
    // A pass from the last 30 s is replayed instead of re-run.
    return streamPass(PAGE_LOAD_MAX_AGE_MS, false);
  }

  /**
   * One detection pass, streamed: each agent's card as its probes settle. A POST: probing is work, which no GET
   * starts. A rescan keeps the cards it has (each is replaced as it settles again) and counts them settling.
   */
  async function streamPass(maxAgeMs: number, rescan: boolean): Promise<void> {
    const controller = beginLoad();
    try {
      const res = await api.raw("/api/agents/rescan?stream=1", {
        method: "POST",
        headers: { accept: "text/event-stream", "content-type": "application/json" },
        body: JSON.stringify({ maxAgeMs }),
        signal: controller.signal,
      });
      if (!res.ok || !res.body) throw new Error(`agents stream: HTTP ${res.status}`);
      if (rescan) rescanProgress.value = { settled: 0, total: agents.peek().length };
      else agents.value = [];
      let done = false;
      for await (const frame of readSseFrames(res.body)) {
        if (frame.event === "agent") {
          const agent = parseAgent(frame.data);
          if (agent) upsert(agent);
          const progress = rescanProgress.peek();
          if (rescan && progress && agent?.state !== "probing") rescanProgress.value = { settled: progress.settled + 1, total: Math.max(progress.total, progress.settled + 1) };
        } else if (frame.event === "done") {
          done = true;
          break;
        } else if (frame.event === "error") {
          throw new Error(frame.data);
        }
      }
      if (!done) throw new Error("agents stream ended early");
      load.value = "done";
    } catch (streamError) {
      if (controller.signal.aborted) return;
      try {
        agents.value = (await api.get<AgentListResponse>("/api/agents")).agents;
        load.value = "done";
      } catch (listError) {
        error.value = errorMessage(listError ?? streamError);
        load.value = "error";
      }
    }
  }

  async function rescan(): Promise<void> {
    rescanning.value = true;
    if (machine) {
      await refreshThere(machine);
      rescanning.value = false;
      return;
    }
    try {
      await streamPass(0, true);
    } finally {
      rescanning.value = false;
      rescanProgress.value = null;
    }
  }

  function byId(id: string | null | undefined): AgentInfo | undefined {
    return id ? agents.value.find((a) => a.id === id) : undefined;
  }

  function dispose(): void {
    abort?.abort();
  }

  const where = machine ? machineLabel(machine) : "this machine";
  return { agents, load, error, rescanning, rescanProgress, groups, available, probing, pickable, suggestedCommands, installSuggestions, where, refresh, rescan, byId, dispose, [Symbol.dispose]: dispose };
}

/** The machine or container URL of a project path (`ssh://me@box:22/srv/app` → `ssh://me@box:22`), null for a local one. */
export function machineOf(path: string | null | undefined): string | null {
  return /^(?:ssh|docker):\/\/[^/]*/i.exec(path ?? "")?.[0] ?? null;
}

/** How a page names a machine URL: `me@box`, `container dev`. */
export function machineLabel(machine: string): string {
  const docker = /^docker:\/\/(.*)$/i.exec(machine);
  if (docker) return `container ${docker[1]}`;
  return machine.replace(/^ssh:\/\//i, "").replace(/:\d+$/, "");
}
export type AgentsModel = ReturnType<typeof createAgentsModel>;

/** The copyable commands (install, log in) the agent's diagnostics offer, first one first. */
export function copyCommands(agent: AgentInfo): string[] {
  return agent.diagnostics.flatMap((d) => d.fixActions.flatMap((f) => (f.kind === "copyCommand" ? [f.command] : [])));
}

/** `next`, except that an agent `previous` had settled keeps that result where `next` still probes it. */
export function settledFirst(previous: readonly AgentInfo[], next: readonly AgentInfo[]): AgentInfo[] {
  const settled = new Map(previous.filter((agent) => agent.state !== "probing").map((agent) => [agent.id, agent]));
  return next.map((agent) => (agent.state === "probing" ? (settled.get(agent.id) ?? agent) : agent));
}

/**
 * One collator for every comparison: `localeCompare` with options builds a collator per call, and the list is sorted
 * again on every card a rescan streams (a tenth of a page load's script time went to that).
 */
const names = new Intl.Collator(undefined, { sensitivity: "base" });
const ids = new Intl.Collator();

function byName(a: AgentInfo, b: AgentInfo): number {
  return names.compare(a.name, b.name) || ids.compare(a.id, b.id);
}

function parseAgent(data: string): AgentInfo | null {
  try {
    const value = JSON.parse(data) as Partial<AgentInfo> | null;
    if (!value || typeof value.id !== "string" || typeof value.state !== "string") return null;
    return { diagnostics: [], models: [], capabilities: {}, probeMs: {}, ...value } as AgentInfo;
  } catch {
    return null;
  }
}
