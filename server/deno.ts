/**
 * The same daemon under Deno: `deno run -A server/deno.ts [--port N] [--data-dir DIR]`.
 * Proves the engine is portable (web-standard APIs and node: built-ins); sqlite is node:sqlite here and the
 * server is Deno.serve. Prints the same first line as `od serve`.
 */
import { resolveDataDir } from "./paths.ts";
import { startDaemon, type HttpServe } from "./daemon.ts";
import { openNodeSqlite } from "./platform/sqlite-node.ts";

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
  args: string[];
  exit(code: number): never;
  addSignalListener(signal: "SIGINT" | "SIGTERM", handler: () => void): void;
};

const encoder = new TextEncoder();

/**
 * Elysia's generator SSE enqueues strings, which Deno's HTTP layer refuses ("expected typed ArrayBufferView"):
 * re-encode event-stream bodies to bytes.
 */
export function encodeEventStreams(response: Response): Response {
  if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
  const body = response.body.pipeThrough(
    new TransformStream<unknown, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : (chunk as Uint8Array));
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const serveWithDeno: HttpServe = ({ fetch, port, hostname }) => {
  const server = Deno.serve({ port, hostname, onListen: () => {} }, async (request) => encodeEventStreams(await fetch(request)));
  return { port: server.addr.port, stop: () => server.shutdown() };
};

function flag(name: string): string | undefined {
  const index = Deno.args.indexOf(`--${name}`);
  return index === -1 ? undefined : Deno.args[index + 1];
}

async function start(): Promise<void> {
  const daemon = await startDaemon({
    port: Number(flag("port") ?? 7456),
    host: flag("host") ?? "127.0.0.1",
    dataDir: resolveDataDir(process.env, flag("data-dir")),
    token: process.env.OD_TOKEN,
    openSqlite: openNodeSqlite,
    serve: serveWithDeno,
  });
  console.log(`od listening on ${daemon.url}`);
  daemon.ready.catch((error) => {
    console.error(`od: could not start: ${error instanceof Error ? error.message : String(error)}`);
    void daemon.stop().then(() => Deno.exit(1));
  });
  const stop = () => void daemon.stop().then(() => Deno.exit(0));
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}

void start();
