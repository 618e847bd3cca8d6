// Issue #39: `od` on the PATH. package.json's `bin` points at a Node launcher that runs server/main.ts on the project's
// own Bun. npm 11 runs a project's own bin for `npx <name>` without asking the registry (checked here with a registry
// address nothing listens on, and --offline), from any folder inside the project.
import { describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { spawnChild, type ChildHandle } from "../../server/platform/process.ts";
import { descendantsOf } from "../../server/machines/process-table.ts";
import { VERSION } from "../../server/version.ts";
import { isLivePid } from "../support/survivors.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin?: Record<string, string> };
// No registry is reachable here: any attempt to fetch fails at once instead of hanging or succeeding by accident.
const offlineNpm = { npm_config_registry: "http://127.0.0.1:9/", npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };

async function collect(child: ChildHandle): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const read = async (stream: AsyncIterable<Uint8Array>) => {
    let text = "";
    for await (const chunk of stream) text += new TextDecoder().decode(chunk);
    return text;
  };
  const [stdout, stderr, exit] = await Promise.all([read(child.stdout), read(child.stderr), child.exited]);
  return { stdout, stderr, code: exit.code };
}

describe("od launcher", () => {
  test("package.json names it as the `od` bin", () => {
    expect(pkg.bin).toEqual({ od: "scripts/od-launcher.mjs" });
  });

  test("`npx --offline od --version` works from a folder inside the checkout, without the registry", async () => {
    const npx = await spawnChild({ argv: ["npx", "--offline", "od", "--version"], cwd: join(root, "server"), env: { ...process.env, ...offlineNpm }, stdin: "ignore" });
    const { stdout, stderr, code } = await collect(npx);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain(VERSION);
  }, 60_000);

  test("through a link on PATH, from any folder: arguments in, output and the exit code out", async () => {
    using dir = tempDir("od-launcher-");
    symlinkSync(join(root, pkg.bin!.od!), join(dir.path, "od"));
    const od = await spawnChild({ argv: [join(dir.path, "od"), "agents", "no-such-agent"], cwd: dir.path, env: { ...process.env, OD_DATA_DIR: join(dir.path, "data") }, stdin: "ignore" });
    const { stdout, stderr, code } = await collect(od);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain('unknown agent id "no-such-agent"');
  }, 60_000);

  test("SIGTERM to the launcher reaches od, which shuts down; the launcher leaves nothing behind", async () => {
    using dir = tempDir("od-launcher-");
    const od = await spawnChild({
      argv: [join(root, pkg.bin!.od!), "serve", "--port", "0", "--no-open", "--data-dir", join(dir.path, "data")],
      cwd: dir.path,
      env: process.env,
      stdin: "ignore",
      ownProcessGroup: true,
    });
    try {
      let stdout = "";
      const lines = od.stdout[Symbol.asyncIterator]();
      while (!/^od listening on http:\/\/127\.0\.0\.1:\d+\//m.test(stdout)) {
        const next = await lines.next();
        if (next.done) throw new Error(`od ended before it listened:\n${stdout}`);
        stdout += new TextDecoder().decode(next.value);
      }
      void (async () => {
        while (!(await lines.next()).done);
      })();
      const children = await descendantsOf(od.pid);
      expect(children.length).toBeGreaterThan(0);
      let stderr = "";
      const errDone = (async () => {
        for await (const chunk of od.stderr) stderr += new TextDecoder().decode(chunk);
      })();
      // Only the launcher is signalled, as a process manager would; it must pass the signal on.
      od.kill("SIGTERM");
      const exit = await od.exited;
      await errDone;
      expect(stderr).toContain("shutting down");
      expect(exit.code === 0 || exit.signal === "SIGTERM").toBe(true);
      expect(children.filter(isLivePid)).toEqual([]);
    } finally {
      od.kill("SIGKILL", { group: true });
    }
  }, 60_000);
});
