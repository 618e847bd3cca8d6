/**
 * Live model discovery for ACP agents: spawn the agent, `initialize` + `session/new`, read the offered models from
 * the session result, then kill the whole process group. Bounded by `timeoutMs`; never throws.
 */
import { spawnChild, type ChildHandle } from "../../../platform/process.ts";
import { JsonRpcConnection } from "../jsonrpc/connection.ts";
import { availableModels, type AcpModelChoice } from "./models.ts";
import { initializeParams } from "./params.ts";

export type DiscoverAcpModelsOptions = {
  /** The agent's ACP command line (executable + args). */
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  /** Hard bound for the whole probe (default 15 s). */
  timeoutMs?: number;
};

/** The models the agent offers, or null when the probe failed, timed out or found none. */
export async function discoverAcpModels({ argv, env, cwd, timeoutMs = 15_000 }: DiscoverAcpModelsOptions): Promise<AcpModelChoice[] | null> {
  let child: ChildHandle | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    child = await spawnChild({ argv, env, cwd, stdin: "pipe", ownProcessGroup: true });
    const stdin = child.stdin;
    if (!stdin) return null;
    void drain(child.stderr);
    const connection = new JsonRpcConnection({ stdin, stdout: child.stdout }, { jsonrpcField: true });
    const probe = (async () => {
      await connection.request("initialize", initializeParams());
      const session = await connection.request("session/new", { cwd, mcpServers: [] });
      const models = availableModels(session);
      return models.length > 0 ? models : null;
    })();
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    return await Promise.race([probe.catch(() => null), timeout]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    if (child) {
      child.stdin?.end();
      child.kill("SIGKILL", { group: true });
      await child.exited;
    }
  }
}

async function drain(stream: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    for await (const _chunk of stream) {
      // Discard: a probe's stderr is noise, but an unread pipe can block the child.
    }
  } catch {
    // Gone.
  }
}
