/** How the daemon listens: Bun.serve (platform/serve-bun.ts) or Deno.serve (deno.ts), behind one signature. */
export type HttpServe = (options: {
  fetch: (request: Request) => Response | Promise<Response>;
  port: number;
  hostname: string;
}) => { port: number; stop(): Promise<void> };
