// Request bodies are read no further than their route's limit: 413 PAYLOAD_TOO_LARGE, declared or streamed.
import { describe, expect, test } from "bun:test";
import { JSON_BODY_LIMIT, OPEN_ROUTE_BODY_LIMIT, UPLOAD_BODY_LIMIT } from "../../server/contracts/body-limits.ts";
import { startDaemon, type HttpServe } from "../../server/daemon.ts";
import { bodyLimitOf } from "../../server/http/body-limit.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { tempDir } from "../support/temp.ts";

const PORT = 40125;

async function startInProcess(dataDir: string) {
  let handler: ((request: Request) => Response | Promise<Response>) | undefined;
  const serve: HttpServe = ({ fetch }) => {
    handler = fetch;
    return { port: PORT, stop: async () => {} };
  };
  const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir, token: "t", openSqlite: openBunSqlite, serve, env: { PATH: "/nonexistent" } });
  await daemon.ready;
  return { daemon, call: (path: string, init: RequestInit) => Promise.resolve(handler!(new Request(`http://127.0.0.1:${PORT}${path}`, init))) };
}

/** A body of `total` bytes in 1 KiB chunks, with no declared length; `pulled()` says how much anything read of it. */
function streamedBody(total: number): { body: ReadableStream<Uint8Array>; pulled(): number } {
  let pulled = 0;
  const chunk = new Uint8Array(1024).fill(0x20);
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= total) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => pulled };
}

const jsonWrite = (method: string, body: BodyInit, extra: Record<string, string> = {}): RequestInit =>
  ({ method, body, headers: { "content-type": "application/json", ...extra }, duplex: "half" }) as RequestInit;

describe("request body limits", () => {
  test("each route's limit: small where no credential is needed, documented limits for JSON and uploads", () => {
    expect(bodyLimitOf("POST", "/api/session")).toBe(OPEN_ROUTE_BODY_LIMIT);
    expect(bodyLimitOf("POST", "/")).toBe(OPEN_ROUTE_BODY_LIMIT);
    expect(bodyLimitOf("POST", "/api/runs")).toBe(JSON_BODY_LIMIT);
    expect(bodyLimitOf("PUT", "/api/app-config")).toBe(JSON_BODY_LIMIT);
    expect(bodyLimitOf("POST", "/api/projects/p1/uploads")).toBe(UPLOAD_BODY_LIMIT);
    expect([OPEN_ROUTE_BODY_LIMIT, JSON_BODY_LIMIT, UPLOAD_BODY_LIMIT]).toEqual([4096, 16 * 1024 * 1024, UPLOAD_BODY_LIMIT]);
    expect(UPLOAD_BODY_LIMIT).toBeGreaterThan((10 * 1024 * 1024 * 4) / 3); // a 10 MB image, base64
  });

  test("an open route refuses a body declared larger than 4 KiB, and stops reading a streamed one there", async () => {
    using data = tempDir("od-body-open-");
    const { daemon, call } = await startInProcess(data.path);
    const declared = await call("/api/session", jsonWrite("POST", JSON.stringify({ code: "x".repeat(5000) })));
    expect([declared.status, await declared.json()]).toEqual([413, { error: { code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("4096") } }]);

    const streamed = streamedBody(100 * 1024 * 1024);
    const res = await call("/api/session", jsonWrite("POST", streamed.body));
    expect([res.status, (await res.json()).error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    expect(streamed.pulled()).toBeLessThanOrEqual(OPEN_ROUTE_BODY_LIMIT + 2 * 1024);

    // Within the limit, streamed or not, the route works as before.
    const small = await call("/api/session", jsonWrite("POST", JSON.stringify({ code: "made-up" })));
    expect([small.status, (await small.json()).error.code]).toEqual([401, "INVALID_LAUNCH_CODE"]);
    await daemon.stop();
  });

  test("without a credential, a closed route's streamed body is not read at all", async () => {
    using data = tempDir("od-body-closed-");
    const { daemon, call } = await startInProcess(data.path);
    const streamed = streamedBody(100 * 1024 * 1024);
    const res = await call("/api/runs", jsonWrite("POST", streamed.body));
    expect(res.status).toBe(401);
    expect(streamed.pulled()).toBeLessThanOrEqual(2 * 1024);
    await daemon.stop();
  });

  test("authenticated JSON stops at 16 MiB, declared or streamed; an upload at its own limit", async () => {
    using data = tempDir("od-body-auth-");
    const { daemon, call } = await startInProcess(data.path);
    const auth = { authorization: "Bearer t" };
    const declared = await call("/api/app-config", jsonWrite("PUT", new Uint8Array(JSON_BODY_LIMIT + 1).fill(0x20), auth));
    expect([declared.status, (await declared.json()).error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);

    const streamed = streamedBody(64 * 1024 * 1024);
    const res = await call("/api/app-config", jsonWrite("PUT", streamed.body, auth));
    expect([res.status, (await res.json()).error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    expect(streamed.pulled()).toBeLessThanOrEqual(JSON_BODY_LIMIT + 2 * 1024);

    const upload = await call("/api/projects/nope/uploads", jsonWrite("POST", new Uint8Array(UPLOAD_BODY_LIMIT + 1).fill(0x20), auth));
    expect([upload.status, (await upload.json()).error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);

    const fine = await call("/api/app-config", jsonWrite("PUT", JSON.stringify({ theme: "dark" }), auth));
    expect([fine.status, await fine.json()]).toEqual([200, { config: { theme: "dark" } }]);
    await daemon.stop();
  });
});
