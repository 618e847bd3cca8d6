// bench/fixtures/stack-floor.ts compiles as bench/startup.ts builds it and answers the GET the benchmark polls, so
// the idle-RSS floor it reports comes from a server that really started.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { buildStackFloor } from "../../bench/startup.ts";
import { tempDir } from "../support/temp.ts";

test("the stack floor builds, starts, and answers the authenticated GET (and refuses it without the token)", async () => {
  using dir = tempDir("od-stack-floor-");
  const binary = await buildStackFloor(dir.path);
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  const token = "t".repeat(43);
  const child = Bun.spawn([binary, "--port", String(port), "--data-dir", join(dir.path, "data")], { env: { OD_TOKEN: token, PATH: "/usr/bin:/bin" }, stdout: "ignore", stderr: "pipe" });
  try {
    const url = `http://127.0.0.1:${port}/api/app-config`;
    let answer: Response | undefined;
    for (let tries = 0; !answer && tries < 500; tries++) {
      answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
      if (!answer) await Bun.sleep(10);
    }
    expect(answer?.status).toBe(200);
    expect(await answer!.json()).toEqual({ config: { theme: "system" } });
    expect((await fetch(url)).status).toBe(401);
  } finally {
    child.kill();
    await child.exited;
  }
}, 30_000);
