/** The fake CLI's paced transcript (`outFile` + `perSecond`), which the page benchmark streams at ~5k events/s. */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, FAKE_CLI } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

test("a paced transcript prints every line once, in order, and no faster than asked", async () => {
  using temp = tempDir("od-fake-paced-");
  const file = join(temp.path, "lines.jsonl");
  const lines = Array.from({ length: 100 }, (_, i) => `{"n":${i}}`);
  writeFileSync(file, lines.join("\n") + "\n");
  const child = Bun.spawn([BUN, FAKE_CLI], { env: { ...process.env, FAKE_CLI_SCRIPT: JSON.stringify([{ outFile: file, perSecond: 200 }]) }, stdout: "pipe", stdin: "ignore" });
  const decoder = new TextDecoder();
  let out = "";
  let first: number | undefined;
  for await (const chunk of child.stdout) {
    first ??= performance.now();
    out += decoder.decode(chunk, { stream: true });
  }
  const spread = performance.now() - first!;
  expect(await child.exited).toBe(0);
  expect(out.split("\n").filter(Boolean)).toEqual(lines);
  // 100 lines at 200 a second: the last is due ~500 ms after the first (unpaced, they all come in a few ms).
  expect(spread).toBeGreaterThanOrEqual(300);
});
