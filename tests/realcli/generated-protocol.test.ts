// The codex app-server types we commit are exactly what the pinned codex generates (a codex bump shows as a diff).
import { expect, test } from "bun:test";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { ensureRealClis } from "./setup.ts";

test("scripts/generate-codex-protocol.ts --check passes against the pinned codex", async () => {
  await ensureRealClis();
  const root = join(import.meta.dir, "..", "..");
  const child = await spawnChild({ argv: [process.execPath, join(root, "scripts", "generate-codex-protocol.ts"), "--check"], cwd: root, env: { ...process.env } });
  let output = "";
  const decoder = new TextDecoder();
  const read = async (stream: AsyncIterable<Uint8Array>) => {
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  await Promise.all([read(child.stdout), read(child.stderr)]);
  const exit = await child.exited;
  expect({ code: exit.code, output: exit.code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
}, 10 * 60_000);
