// What a local `od run` can evaluate: every module its command reaches by import, static or dynamic. Code that only a
// run on another machine or in a worktree needs is loaded on first use (server/platform/load-on-first-use.ts), so a
// local run never evaluates it: the ssh and docker machines, the scripted run place and the remote scripts under it,
// staging inputs there, and a worktree's place. Evaluating them cost a compiled `od run` ~0.2 ms before its agent
// started (400 interleaved rounds against a shell-script CLI).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const serverDir = join(import.meta.dir, "..", "..", "server");
const transpiler = new Bun.Transpiler({ loader: "ts" });

/** Our modules reachable from `entry` by import statements and import() calls (not by first-use requires). */
function reachable(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { path, kind } of transpiler.scanImports(readFileSync(file, "utf8"))) {
      if (kind !== "require-call" && path.startsWith(".") && path.endsWith(".ts")) visit(resolve(dirname(file), path));
    }
  };
  visit(join(serverDir, entry));
  return [...seen].map((file) => relative(serverDir, file));
}

const ELSEWHERE_ONLY = [
  "machines/ssh-machine.ts",
  "machines/docker-machine.ts",
  "runs/scripted-run-place.ts",
  "remote/remote-changes.ts",
  "remote/remote-artifacts.ts",
  "remote/remote-staged-inputs.ts",
  "remote/remote-skills.ts",
  "remote/remote-run-inputs.ts",
  "runs/worktree-run-place.ts",
];

test("a local od run reaches none of the code only another machine or a worktree needs", () => {
  const modules = reachable("cli/run-command.ts");
  expect(modules).toContain("runs/run-execution.ts"); // the walk follows the run's own import() calls
  expect(modules).toContain("machines/local-machine.ts");
  expect(modules.filter((module) => ELSEWHERE_ONLY.includes(module))).toEqual([]);
});

test("each of that code is still where its first use loads it", () => {
  const firstUses = new Set<string>();
  for (const file of reachable("cli/run-command.ts")) {
    for (const { path, kind } of transpiler.scanImports(readFileSync(join(serverDir, file), "utf8"))) {
      if (kind === "require-call" && path.startsWith(".")) firstUses.add(relative(serverDir, resolve(dirname(join(serverDir, file)), path)));
    }
  }
  for (const module of ["machines/ssh-machine.ts", "machines/docker-machine.ts", "runs/scripted-run-place.ts", "remote/remote-staged-inputs.ts", "remote/remote-run-inputs.ts", "runs/worktree-run-place.ts"]) {
    expect(firstUses.has(module)).toBe(true);
  }
});
