// An attacker with a second local account polls every process's command line (`/proc/<pid>/cmdline`, what `ps`
// shows) every 2 ms for a sign-in code while `od serve` opens the browser, and trades whatever it finds. The
// browser takes 50 ms to start. Nothing the poller can see may sign anyone in; the browser must.
// Needs root (to create the account) and useradd; without them the test fails and says why.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startDaemonProcess } from "../support/daemon-process.ts";
import { fakeBrowserCommand, OD_MAIN } from "../support/od-cli.ts";
import { poll } from "../support/protocol-pipes.ts";
import { tempDir } from "../support/temp.ts";

const ATTACKER = "od-race-test";

/**
 * Scans every process's argv for `token=CODE` every 2 ms; prints `found CODE`, and for a URL with an origin tries
 * `POST /api/session` with the code at once, printing `traded CODE STATUS`.
 */
const POLLER = String.raw`
$| = 1; my %seen; print "ready\n";
while (1) {
  opendir(my $d, "/proc") or die "no /proc";
  for my $pid (grep { /^\d+$/ } readdir $d) {
    open(my $f, "<", "/proc/$pid/cmdline") or next; local $/; my $c = <$f>; close $f;
    next unless defined $c; $c =~ tr/\0/ /;
    while ($c =~ m{(?:(https?://[^/\s?]+)/?)?\?token=([\w-]+)}g) {
      my ($origin, $code) = ($1, $2); next if $seen{$code}++;
      print "found $code\n";
      next unless $origin;
      my $status = qx{curl -s -o /dev/null -w '%{http_code}' -X POST -H 'content-type: application/json' --data '{"code":"$code"}' $origin/api/session};
      print "traded $code $status\n";
    }
  }
  closedir $d; select(undef, undef, undef, 0.002);
}`;

function sh(argv: string[]): { code: number; stdout: string; stderr: string } {
  const res = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  return { code: res.exitCode, stdout: res.stdout.toString(), stderr: res.stderr.toString() };
}

let createdAccount = false;
let attacker: { uid: number; gid: number };

beforeAll(() => {
  if (process.getuid!() !== 0) throw new Error("this test creates a second local account and must run as root");
  if (!Bun.which("useradd") || !Bun.which("setpriv") || !Bun.which("perl") || !Bun.which("curl")) {
    throw new Error("this test needs useradd, setpriv, perl and curl to act as a second local user");
  }
  if (sh(["id", "-u", ATTACKER]).code !== 0) {
    const added = sh(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", ATTACKER]);
    if (added.code !== 0) throw new Error(`useradd failed: ${added.stderr}`);
    createdAccount = true;
  }
  attacker = { uid: Number(sh(["id", "-u", ATTACKER]).stdout), gid: Number(sh(["id", "-g", ATTACKER]).stdout) };
});

afterAll(() => {
  if (createdAccount) sh(["userdel", ATTACKER]);
});

const asAttacker = (argv: string[]) => ["setpriv", `--reuid=${attacker.uid}`, `--regid=${attacker.gid}`, "--clear-groups", ...argv];

describe("the browser od opens cannot be raced by another local user", () => {
  test("a poller of every command line finds no usable code; the browser signs in; its page is od's user's alone", async () => {
    using dir = tempDir("od-race-");
    const dataDir = join(dir.path, "data");
    const result = join(dir.path, "browser.json");

    const poller = Bun.spawn(asAttacker(["perl", "-e", POLLER]), { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    let seen = "";
    void (async () => {
      for await (const chunk of poller.stdout) seen += new TextDecoder().decode(chunk);
    })();
    try {
      await poll(() => seen.includes("ready\n"), 10_000, "the poller to start");
      // Control: the poller does see another user's command line (as it saw the opener's before this fix).
      const control = Bun.spawn(["sh", "-c", "sleep 3", "http://127.0.0.1:9/?token=control-code-seen"], { stdout: "ignore", stderr: "ignore" });
      await poll(() => seen.includes("found control-code-seen\n"), 10_000, "the poller to see the control process");
      control.kill();

      await using od = await startDaemonProcess([process.execPath, OD_MAIN, "serve", "--port", "0", "--data-dir", dataDir], { env: { BROWSER: fakeBrowserCommand(result) } });
      const browser = await poll(() => existsSync(result) && JSON.parse(readFileSync(result, "utf8")), 20_000, "the browser to load its page");
      await Bun.sleep(500); // the poller keeps looking a while after
      expect(browser.status).toBe(201);
      expect((await fetch(`${od.origin}/api/app-config`, { headers: { authorization: `Bearer ${browser.secret}` } })).status).toBe(200);

      const found = seen.split("\n").filter((line) => line.startsWith("found ") && line !== "found control-code-seen");
      const traded = seen.split("\n").filter((line) => line.startsWith("traded ") && !line.includes("control-code-seen"));
      expect({ found, traded }).toEqual({ found: [], traded: [] });

      const page = statSync(browser.file.path);
      expect([page.mode & 0o777, page.uid]).toEqual([0o600, process.getuid!()]);
      const read = sh(asAttacker(["cat", browser.file.path]));
      expect(read.code).not.toBe(0);
      expect(read.stdout).toBe("");
    } finally {
      poller.kill("SIGKILL");
      await poller.exited;
    }
  }, 90_000);
});
