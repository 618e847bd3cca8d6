// The loopback-only network namespace a real CLI that dials public addresses at start runs in (loopback-only.ts):
// loopback is its one interface, no other address is reachable, and the fake model server is, at its usual URL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.ts";
import { bridgeToUnixSocket, forwardConnections, loopbackOnlyProblem, writeLoopbackOnlyShim } from "./loopback-only.ts";

let dir: string;
let fake: FakeModelServer;
let bridge: { close(): void };
let shim: string;

// What the "CLI" reports from inside: its interfaces, the fake server's answer, and whether another address answers.
const PROBE = `
const { networkInterfaces } = require("node:os");
const reach = (url) => fetch(url, { signal: AbortSignal.timeout(3000) }).then((r) => r.status, (e) => "unreachable: " + (e.code ?? e.name));
const [fake, outside] = await Promise.all([reach(process.env.FAKE_URL + "/v1/models"), reach("http://10.255.255.53:53/")]);
console.log(JSON.stringify({ interfaces: Object.keys(networkInterfaces()), fake, outside }));
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "od-loopback-only-"));
  fake = await startFakeModelServer();
  const port = Number(new URL(fake.url).port);
  const socket = join(dir, "fake.sock");
  bridge = bridgeToUnixSocket(socket, port);
  shim = writeLoopbackOnlyShim(dir, "probe", [process.execPath, "-e", PROBE], socket, port);
});

afterAll(async () => {
  bridge.close();
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("inside: loopback only, nothing else reachable, the fake server at its own URL; the exit code is the CLI's", async () => {
  const child = Bun.spawn([shim], { env: { ...process.env, FAKE_URL: fake.url }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(code, err).toBe(0);
  const seen = JSON.parse(out.trim().split("\n").at(-1)!);
  expect(seen.interfaces).toEqual(["lo"]);
  expect(seen.fake).toBe(200);
  expect(String(seen.outside)).toStartWith("unreachable");
}, 30_000);

test("a signal to the shim's pid reaches the CLI, and the shim ends as the CLI did", async () => {
  const sleeper = writeLoopbackOnlyShim(dir, "sleeper", ["sleep", "30"], join(dir, "fake.sock"), Number(new URL(fake.url).port));
  const child = Bun.spawn([sleeper], { stdout: "ignore", stderr: "pipe" });
  await Bun.sleep(1000);
  child.kill("SIGTERM");
  await child.exited;
  expect(child.signalCode).toBe("SIGTERM");
}, 30_000);

test("a machine that cannot make the namespace is told why, in words, before any CLI starts", () => {
  expect(loopbackOnlyProblem(() => ({ status: 0, stderr: "" }))).toBeUndefined();
  const problem = loopbackOnlyProblem(() => ({ status: 1, stderr: "unshare: unshare failed: Operation not permitted\n" }));
  expect(problem).toContain("could not make one");
  expect(problem).toContain("Operation not permitted");
  expect(problem).toContain("unprivileged_userns_clone");
  expect(loopbackOnlyProblem(() => ({ status: null, stderr: "spawnSync unshare ENOENT" }))).toContain("ENOENT");
});

test("a forwarded connection carries large bodies both ways whole, past what the sockets take at once", async () => {
  const big = new Uint8Array(8 * 1024 * 1024).map((_, i) => (i * 31) % 251);
  const digest = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => (request.method === "POST" ? new Response(digest(new Uint8Array(await request.arrayBuffer()))) : new Response(big)),
  });
  const socket = join(dir, "large.sock");
  const forward = forwardConnections({ unix: socket }, { hostname: "127.0.0.1", port: server.port! });
  try {
    const down = new Uint8Array(await (await fetch("http://local/", { unix: socket })).arrayBuffer());
    expect(down.length).toBe(big.length);
    expect(digest(down)).toBe(digest(big));
    const up = await (await fetch("http://local/", { unix: socket, method: "POST", body: big })).text();
    expect(up).toBe(digest(big));
  } finally {
    forward.close();
    await server.stop(true);
  }
}, 30_000);

