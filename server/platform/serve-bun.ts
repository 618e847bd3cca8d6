/** Bun.serve behind a tiny interface the daemon uses (Deno has its own in server/deno.ts). */
import type { HttpServe } from "../daemon.ts";

export const serveWithBun: HttpServe = ({ fetch, port, hostname }) => {
  // idleTimeout 0: SSE streams stay quiet for long stretches between agent events (heartbeats keep proxies happy).
  const server = Bun.serve({ fetch, port, hostname, idleTimeout: 0 });
  return {
    port: server.port ?? port,
    stop: async () => {
      await server.stop(true);
    },
  };
};
