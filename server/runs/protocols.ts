/** Which transport speaks which protocol format. */
import type { ProtocolFormat } from "../runtimes/invocation.ts";
import { startAcpTransport } from "../runtimes/protocols/acp/session.ts";
import { startCodexAppServerTransport } from "../runtimes/protocols/codex-app-server/session.ts";
import { startDshProfileSession } from "../runtimes/protocols/dsh-profile/session.ts";
import { startPiRpcTransport } from "../runtimes/protocols/pi-rpc/session.ts";
import type { ProtocolSession, TransportIO, TransportOptions } from "../runtimes/protocols/types.ts";

export function startProtocol(format: ProtocolFormat, io: TransportIO, options: TransportOptions & { requestId?: string }): ProtocolSession {
  switch (format) {
    case "acp-json-rpc":
      return startAcpTransport(io, options);
    case "pi-rpc":
      return startPiRpcTransport(io, options);
    case "dsh-profile-jsonl":
      return startDshProfileSession(io, options);
    case "codex-app-server":
      return startCodexAppServerTransport(io, options);
  }
}
