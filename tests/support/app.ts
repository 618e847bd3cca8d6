/** In-process app for route tests: a fresh store in a temp dir, a fixed token and port, helpers to call it. */
import { join } from "node:path";
import { createApp, type App } from "../../server/app.ts";
import { Credentials } from "../../server/http/credentials.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";
import type { AnyElysia } from "elysia";
import { tempDir } from "./temp.ts";
import { tmpdir } from "node:os";
import type { RemoteContext } from "../../server/machines/remote-exec.ts";
import { WorktreeService } from "../../server/worktrees/worktree-service.ts";

export const TEST_TOKEN = "test-token-0123456789";
export const TEST_PORT = 7456;
export const ORIGIN = `http://127.0.0.1:${TEST_PORT}`;

export type TestApp = {
  app: App;
  credentials: Credentials;
  store: Store;
  dataDir: string;
  /** An authorised request (bearer token); `init.headers` may override anything. */
  call(path: string, init?: RequestInit): Promise<Response>;
  json(method: string, path: string, body: unknown): Promise<Response>;
  [Symbol.asyncDispose](): Promise<void>;
};

export async function startTestApp(options: { dataDir?: string; modules?: AnyElysia[]; credentials?: Credentials } = {}): Promise<TestApp> {
  const temp = options.dataDir ? undefined : tempDir("od-app-");
  const dataDir = options.dataDir ?? temp!.path;
  const store = Store.open(join(dataDir, "od.db"), openBunSqlite);
  const credentials = options.credentials ?? new Credentials(TEST_TOKEN);
  credentials.keepSessionsIn(store.sessions);
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    app = await createApp({
      version: "0.0.0-test",
      store,
      guard: { credentials, port: () => TEST_PORT },
      modules: options.modules,
    });
  } catch (error) {
    // A test that expects the app to be refused (a route table clash) leaves nothing behind either.
    store.close();
    temp?.[Symbol.dispose]();
    throw error;
  }
  const call = (path: string, init: RequestInit = {}) =>
    app.handle(
      new Request(`${ORIGIN}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${TEST_TOKEN}`, ...(init.headers as Record<string, string>) },
      }),
    );
  return {
    app,
    credentials,
    store,
    dataDir,
    call,
    json: (method, path, body) =>
      call(path, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    async [Symbol.asyncDispose]() {
      store.close();
      temp?.[Symbol.dispose]();
    },
  };
}

/** The worktree service routes need beside a store: worktrees of projects here go in a temp folder of the process. */
export function testWorktrees(store: Store, remote: RemoteContext = { env: process.env }): WorktreeService {
  return new WorktreeService({ store, remote, localRoot: join(tmpdir(), `od-test-worktrees-${process.pid}`) });
}
