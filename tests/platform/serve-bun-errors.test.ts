// The daemon on a real Bun server, spoken to over a raw socket: requests a browser would never send still get the
// JSON error shape — never Bun's development error page (source excerpt, working directory) — and nothing on stderr.
import { describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { startDaemon } from "../../server/daemon.ts";
import { serveWithBun } from "../../server/platform/serve-bun.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { tempDir } from "../support/temp.ts";

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    setTimeout(() => (socket.destroy(), resolve(answer)), 5000);
  });
}

describe("od on a real Bun server, malformed requests", () => {
  test("a malformed Host, or none (HTTP/1.0), is a small JSON 400 before and after the engine is ready", async () => {
    using data = tempDir("od-serve-errors-");
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir: data.path, token: "t", openSqlite: openBunSqlite, serve: serveWithBun, env: { PATH: "/nonexistent" } });
    try {
      const requests = [
        "GET /api/health HTTP/1.1\r\nHost: a:b:c\r\nConnection: close\r\n\r\n",
        "GET /api/runs HTTP/1.1\r\nHost: a:b:c\r\nConnection: close\r\n\r\n",
        "GET /api/health HTTP/1.0\r\n\r\n",
        "GET / HTTP/1.0\r\n\r\n",
      ];
      for (const phase of ["early", "ready"]) {
        if (phase === "ready") await daemon.ready;
        for (const request of requests) {
          const answer = await rawRequest(daemon.port, request);
          const [head, body = ""] = answer.split("\r\n\r\n");
          expect([phase, request, head!.split("\r\n")[0]]).toEqual([phase, request, "HTTP/1.1 400 Bad Request"]);
          expect(JSON.parse(body).error.code).toBe("BAD_HOST");
          expect(answer.length).toBeLessThan(600);
        }
      }
    } finally {
      await daemon.stop();
    }
  });
});
