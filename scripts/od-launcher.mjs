#!/usr/bin/env node
/**
 * `od` from a checkout (package.json `bin`, so `npx od …` works after `npm install`, from any folder of the project or
 * through a link on PATH). npm starts bins with Node, but od runs on the project's own Bun: this runs
 * `server/main.ts` under it with the same arguments and stdio, passes on the signals a terminal or a process manager
 * sends, and exits as Bun did. Plain Node and no dependencies, so it works before anything else is built.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Node resolves the links npm and users make to this file, so the project is always the folder above scripts/.
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bun = process.platform === "win32" ? join(root, "node_modules", "bun", "bin", "bun.exe") : join(root, "node_modules", ".bin", "bun");
if (!existsSync(bun)) {
  process.stderr.write(`od: Bun is not installed in ${root} (run \`npm install\` there first)\n`);
  process.exit(1);
}

const child = spawn(bun, ["run", join(root, "server", "main.ts"), ...process.argv.slice(2)], { stdio: "inherit" });

// Each signal is passed on once per delivery; od decides what a first and a second Ctrl-C mean.
const FORWARDED = process.platform === "win32" ? ["SIGINT", "SIGTERM"] : ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
for (const signal of FORWARDED) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}

child.on("error", (error) => {
  process.stderr.write(`od: could not start ${bun}: ${error.message}\n`);
  process.exit(1);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so a shell or a supervisor sees what really ended od.
    for (const forwarded of FORWARDED) process.removeAllListeners(forwarded);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
