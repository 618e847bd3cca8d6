/**
 * Runs a transport against one of the fake agents in tests/fakes/ as a real child process (own process group),
 * with a ledger of every frame the fake received and a `respawn` that reaps the previous process first.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { AgentEvent } from "../../server/contracts/events.ts";
import { spawnChild, type ChildHandle } from "../../server/platform/process.ts";
import type { ProtocolSession, StartTransport, TransportIO, TransportOptions } from "../../server/runtimes/protocols/types.ts";

export type FakeRun = {
  session: ProtocolSession;
  /** Events read so far (filled by a background reader). */
  events: AgentEvent[];
  /** All events, once the stream ended. */
  done: Promise<AgentEvent[]>;
  children: ChildHandle[];
  /** Frames the fake(s) received, in order. */
  ledger(): Record<string, unknown>[];
  dir: string;
  cleanup(): Promise<void>;
};

const FAKES = resolve(import.meta.dir, "..", "fakes");

/** Spawns `tests/fakes/<fake>.ts` with `script` and starts `start` on its pipes. */
export async function runFake(
  fake: "acp-agent" | "pi-rpc-agent" | "codex-app-server",
  script: Record<string, unknown>,
  start: StartTransport,
  overrides: Partial<TransportOptions> = {},
): Promise<FakeRun> {
  const dir = mkdtempSync(join(tmpdir(), "od-proto-"));
  const ledgerPath = join(dir, "ledger.jsonl");
  const scriptPath = join(dir, "script.json");
  writeFileSync(scriptPath, JSON.stringify({ ledger: ledgerPath, pidFile: join(dir, "pid"), ...script }));
  const children: ChildHandle[] = [];
  const spawnOne = async (): Promise<TransportIO> => {
    const child = await spawnChild({
      argv: [process.execPath, join(FAKES, `${fake}.ts`), scriptPath],
      cwd: dir,
      env: { ...process.env, OD_FAKE_RUN: dir },
      stdin: "pipe",
      ownProcessGroup: true,
    });
    children.push(child);
    if (!child.stdin) throw new Error("no stdin");
    return { stdin: child.stdin, stdout: child.stdout, stderr: child.stderr };
  };
  const io = await spawnOne();
  const options: TransportOptions = {
    cwd: dir,
    prompt: "hello",
    imagePaths: [],
    mcpServers: [],
    def: {},
    env: {},
    respawn: async () => {
      const previous = children.at(-1);
      previous?.kill("SIGTERM", { group: true });
      await previous?.exited;
      return spawnOne();
    },
    ...overrides,
  };
  const session = start(io, options);
  const events: AgentEvent[] = [];
  const done = (async () => {
    for await (const event of session.events) events.push(event);
    return events;
  })();
  return {
    session,
    events,
    done,
    children,
    dir,
    ledger: () => {
      try {
        return readFileSync(ledgerPath, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
      } catch {
        return [];
      }
    },
    cleanup: async () => {
      for (const child of children) {
        child.kill("SIGKILL", { group: true });
        await child.exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
