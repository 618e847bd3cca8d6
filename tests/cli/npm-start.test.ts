// Issue #17: stopping `npm start` stops the daemon. npm forwards SIGTERM only to the shell running the script, which
// dies of it without passing it on; the daemon (started with --exit-with-parent) notices that its parent is gone and
// shuts down as on Ctrl-C. A terminal's Ctrl-C signals the whole process group, the daemon included.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild, type ChildHandle } from "../../server/platform/process.ts";
import { descendantsOf } from "../../server/machines/process-table.ts";
import { isLivePid } from "../support/survivors.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const TIMEOUT = 90_000;

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

describe("npm start", () => {
  const ways = [
    { name: "SIGTERM to npm alone (kill, a process manager)", stop: (npm: { kill: ChildHandle["kill"] }) => npm.kill("SIGTERM") },
    { name: "Ctrl-C in a terminal (SIGINT to the process group)", stop: (npm: { kill: ChildHandle["kill"] }) => npm.kill("SIGINT", { group: true }) },
  ];
  for (const way of ways) {
    test(`${way.name} stops the daemon it started`, async () => {
      using data = tempDir("od-npm-start-");
      const npm = await spawnChild({
        argv: ["npm", "start", "--", "--port", "0", "--no-open", "--data-dir", data.path],
        cwd: root,
        env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
        stdin: "ignore",
        ownProcessGroup: true,
      });
      let stderr = "";
      const errDone = (async () => {
        for await (const chunk of npm.stderr) stderr += new TextDecoder().decode(chunk);
      })();
      try {
        let stdout = "";
        const lines = npm.stdout[Symbol.asyncIterator]();
        while (!/^od listening on (http:\/\/127\.0\.0\.1:\d+)\//m.test(stdout)) {
          const next = await lines.next();
          if (next.done) throw new Error(`npm start ended before od listened:\n${stdout}\n${stderr}`);
          stdout += new TextDecoder().decode(next.value);
        }
        void (async () => {
          while (!(await lines.next()).done);
        })();
        const origin = /^od listening on (http:\/\/127\.0\.0\.1:\d+)\//m.exec(stdout)![1]!;
        // The bun process running od, not the shell whose command line names it too.
        const daemonPid = (await descendantsOf(npm.pid)).find((pid) => /^\S*bun\S* run server\/main\.ts serve/.test(commandLine(pid)));
        expect(daemonPid).toBeGreaterThan(1);
        expect((await fetch(`${origin}/api/health`)).status).toBe(200);

        way.stop(npm);
        // npm itself waits for its script's output to close, which an orphaned daemon holds open: watch the daemon.
        const deadline = Date.now() + 30_000;
        while (isLivePid(daemonPid!) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(isLivePid(daemonPid!)).toBe(false);
        await Promise.race([errDone, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        expect(stderr).toContain("shutting down");
        expect(await fetch(`${origin}/api/health`).then(() => "answered", () => "refused")).toBe("refused");
      } finally {
        npm.kill("SIGKILL", { group: true });
      }
    }, TIMEOUT);
  }
});
