/**
 * Which transport speaks which protocol format. Each session's module is loaded when a run first speaks it: a
 * stream-json run (most of them) never evaluates the four protocol clients, and the one a run needs loads after its
 * CLI has been started, while the CLI is still starting up.
 */
import type { ProtocolFormat } from "../runtimes/invocation.ts";
import type { ProtocolSession, TransportIO, TransportOptions } from "../runtimes/protocols/types.ts";

export async function startProtocol(format: ProtocolFormat, io: TransportIO, options: TransportOptions & { requestId?: string }): Promise<ProtocolSession> {
  switch (format) {
    case "acp-json-rpc":
      return (await import("../runtimes/protocols/acp/session.ts")).startAcpTransport(io, options);
    case "pi-rpc":
      return (await import("../runtimes/protocols/pi-rpc/session.ts")).startPiRpcTransport(io, options);
    case "dsh-profile-jsonl":
      return (await import("../runtimes/protocols/dsh-profile/session.ts")).startDshProfileSession(io, options);
    case "codex-app-server":
      return (await import("../runtimes/protocols/codex-app-server/session.ts")).startCodexAppServerTransport(io, options);
  }
}
