// Eight parallel 100 MB bodies to the open `POST /api/session` of a real od process, declared and chunked, sent as an
// attacker would (on a raw socket, as fast as od takes them): each is refused with 413 and od's memory stays where it
// was (the issue measured 70 MB → 944 MB before bodies were limited).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { startDaemonProcess } from "../support/daemon-process.ts";
import { OD_MAIN } from "../support/od-cli.ts";
import { tempDir } from "../support/temp.ts";

const BODY_BYTES = 100 * 1000 * 1000;
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

/** POSTs a BODY_BYTES body until od answers or closes; returns od's status line and how much was sent. */
function postHugeBody(origin: string, chunked: boolean): Promise<{ status: string; sent: number }> {
  const { hostname, port, host } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let response = "";
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ status: response.split("\r\n")[0] ?? "", sent });
    };
    socket.on("data", (data) => {
      response += data.toString("latin1");
      if (response.includes("\r\n\r\n")) finish();
    });
    socket.on("error", finish);
    socket.on("close", finish);
    socket.on("connect", async () => {
      const framing = chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${BODY_BYTES}`;
      socket.write(`POST /api/session HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const piece = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]) : chunk;
      while (!done && sent < BODY_BYTES) {
        sent += chunk.length;
        if (!socket.write(piece)) {
          await new Promise<void>((resume) => {
            const go = () => (socket.off("drain", go), socket.off("close", go), resume());
            socket.on("drain", go);
            socket.on("close", go);
          });
        }
      }
      if (!done && chunked) socket.write("0\r\n\r\n");
    });
  });
}

test("8 parallel 100 MB bodies, declared and chunked, are 413s and raise od's RSS by less than 40 MB", async () => {
  using dir = tempDir("od-body-memory-");
  await using od = await startDaemonProcess([process.execPath, OD_MAIN, "serve", "--port", "0", "--no-open", "--data-dir", join(dir.path, "data")]);
  for (let i = 0; i < 100 && (await fetch(`${od.origin}/api/health`).then((r) => r.json())).ready !== true; i++) await Bun.sleep(100);
  await fetch(`${od.origin}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"code":"warm-up"}' });
  await Bun.sleep(200);
  const before = rssKb(od.child.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(od.child.pid))), 10);
  const results = await Promise.all([...Array.from({ length: 8 }, () => postHugeBody(od.origin, false)), ...Array.from({ length: 8 }, () => postHugeBody(od.origin, true))]);
  await Bun.sleep(200);
  clearInterval(sampler);
  expect(results.map((r) => r.status)).toEqual(Array(16).fill("HTTP/1.1 413 Payload Too Large"));
  console.log(`od RSS ${(before / 1024).toFixed(1)} MB before, peak ${(peak / 1024).toFixed(1)} MB during 16 × 100 MB bodies; sent ${results.map((r) => (r.sent / 1e6).toFixed(1)).join(", ")} MB`);
  expect((peak - before) / 1024).toBeLessThan(40);
}, 120_000);
