// The same app served by Deno (node:sqlite store, Deno.serve): health, the guard, and an app-config round trip.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startDaemonProcess } from "../support/daemon-process.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const deno = join(root, "node_modules", ".bin", "deno");

describe("under Deno", () => {
  test("health, guard, app-config and a browser's session survive a restart", async () => {
    using data = tempDir("od-deno-");
    let secret = "";
    const argv = [deno, "run", "-A", join(root, "server", "deno.ts"), "--port", "0", "--data-dir", data.path];
    {
      await using od = await startDaemonProcess(argv, { env: { DENO_NO_UPDATE_CHECK: "1" } });
      const health = await fetch(`${od.origin}/api/health`);
      expect(await health.json()).toEqual({ ok: true, version: expect.any(String), ready: expect.any(Boolean) });

      expect((await fetch(`${od.origin}/api/app-config`)).status).toBe(401);
      const traded = await fetch(`${od.origin}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code: od.code }) });
      expect(traded.status).toBe(201);
      secret = ((await traded.json()) as { secret: string }).secret;
      const foreign = await fetch(`${od.origin}/api/app-config`, { headers: { authorization: `Bearer ${od.token}`, origin: "http://evil.example" } });
      expect(foreign.status).toBe(403);

      const put = await fetch(`${od.origin}/api/app-config`, {
        method: "PUT",
        headers: { authorization: `Bearer ${od.token}`, "content-type": "application/json" },
        body: JSON.stringify({ agentId: "pi", theme: "dark" }),
      });
      expect(put.status).toBe(200);
      const bad = await fetch(`${od.origin}/api/app-config`, {
        method: "PUT",
        headers: { authorization: `Bearer ${od.token}`, "content-type": "application/json" },
        body: JSON.stringify({ theme: "purple" }),
      });
      expect(bad.status).toBe(400);

      // Generator SSE (Elysia enqueues strings, which Deno refuses unless re-encoded): agents stream then done.
      const stream = await fetch(`${od.origin}/api/agents?stream=1`, { headers: { authorization: `Bearer ${od.token}` } });
      expect(stream.headers.get("content-type")).toContain("text/event-stream");
      const text = await stream.text();
      expect(text).toContain("event: agent");
      expect(text.trimEnd().split("\n\n").at(-1)).toContain("event: done");

      // SKILL.md frontmatter is read with the yaml package, loaded on first use (node's require under Deno).
      const skills = await fetch(`${od.origin}/api/skills`, { headers: { authorization: `Bearer ${od.token}` } });
      const listed = (await skills.json()) as { skills: { id: string; diagnostics: { severity: string }[] }[] };
      expect(listed.skills.length).toBeGreaterThan(0);
      expect(listed.skills.flatMap((skill) => skill.diagnostics.filter((d) => d.severity === "error"))).toEqual([]);
    }
    await using od = await startDaemonProcess(argv, { env: { DENO_NO_UPDATE_CHECK: "1" } });
    const res = await fetch(`${od.origin}/api/app-config`, { headers: { authorization: `Bearer ${od.token}` } });
    expect(await res.json()).toEqual({ config: { agentId: "pi", theme: "dark" } });
    expect((await fetch(`${od.origin}/api/app-config`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
  }, 60_000);
});
