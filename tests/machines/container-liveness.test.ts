// The watch on a run's container (server/machines/container-liveness.ts) with a stand-in `docker` on PATH: what it
// reports when the container stays unwell, also when a late `docker inspect` on a loaded machine says nothing.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { watchContainer } from "../../server/machines/container-liveness.ts";
import { tempDir } from "../support/temp.ts";

/** The bound the watch gets here: it asks every quarter of it. */
const BOUND_MS = 1000;

/** A PATH whose `docker` prints `answers[N-1]` ("Running Paused") at its Nth call, and hangs once they run out. */
function fakeDockerPath(folder: string, answers: string[]): string {
  const bin = join(folder, "bin");
  mkdirSync(bin);
  const calls = join(folder, "calls");
  writeFileSync(calls, "0");
  const cases = answers.map((answer, i) => `  ${i + 1}) echo '${answer}' ;;`).join("\n");
  writeFileSync(join(bin, "docker"), `#!/bin/sh\nn=$(($(cat '${calls}') + 1)); echo $n > '${calls}'\ncase $n in\n${cases}\n  *) exec sleep 30 ;;\nesac\n`);
  chmodSync(join(bin, "docker"), 0o755);
  return `${bin}:${process.env.PATH}`;
}

/** Why the watch gave the container up. */
async function lostBecause(answers: string[]): Promise<string> {
  using folder = tempDir("od-liveness-");
  const env = { PATH: fakeDockerPath(folder.path, answers) };
  return await new Promise<string>((resolve) => {
    watchContainer({ kind: "docker", container: "c1", path: "/p" }, { env }, resolve, BOUND_MS);
  });
}

// Each test has its own stand-in and mostly waits out the bound: they run at the same time.
describe.concurrent("watchContainer", () => {
  test("a container seen paused is reported paused, even when a later inspect does not answer in time", async () => {
    expect(await lostBecause(["true true"])).toBe("the container is paused");
  }, 15_000);

  test("a container that never answers is reported silent for the bound", async () => {
    expect(await lostBecause([])).toBe("the container did not answer for 1 s");
  }, 15_000);

  test("a container that runs again clears what was said of it: a later silence is silence", async () => {
    expect(await lostBecause(["true true", "true false"])).toBe("the container did not answer for 1 s");
  }, 15_000);

  test("a stopped container is reported stopped", async () => {
    expect(await lostBecause(Array(10).fill("false false"))).toBe("the container is stopped");
  }, 15_000);
});
