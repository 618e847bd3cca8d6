/** Bun.serve behind a tiny interface the daemon uses (Deno has its own in server/deno.ts). */
import type { HttpServe } from "./http-serve.ts";

export const serveWithBun: HttpServe = ({ fetch, port, hostname }) => {
  // idleTimeout 0: SSE streams stay quiet for long stretches between agent events (heartbeats keep proxies happy).
  // development: false, and an error handler of our own: Bun's development error page (source excerpt, working
  // directory) must never reach a client, whatever throws.
  const server = Bun.serve({
    fetch,
    port,
    hostname,
    idleTimeout: 0,
    development: false,
    error: (error) => {
      console.error("od: unhandled request error", error);
      return Response.json({ error: { code: "INTERNAL", message: "internal error" } }, { status: 500 });
    },
  });
  return {
    port: server.port ?? port,
    stop: async () => {
      await server.stop(true);
    },
  };
};
