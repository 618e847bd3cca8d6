import { describe, expect, test } from "bun:test";
import { SpawnError, spawnChild } from "../../server/platform/process.ts";

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let out = "";
  for await (const chunk of stream) out += decoder.decode(chunk, { stream: true });
  return out + decoder.decode();
}

describe("spawnChild", () => {
  test("pipes stdin to stdout and reports the exit code", async () => {
    const child = await spawnChild({ argv: ["sh", "-c", "cat; exit 3"], stdin: "pipe" });
    await child.stdin!.write("hello\n");
    child.stdin!.end();
    expect(await readAll(child.stdout)).toBe("hello\n");
    expect(await child.exited).toEqual({ code: 3, signal: null });
  });

  test("a missing executable rejects with a typed SpawnError", async () => {
    const error = await spawnChild({ argv: ["/nonexistent/od-test-binary"] }).catch((e) => e);
    expect(error).toBeInstanceOf(SpawnError);
    expect(error.code).toBe("ENOENT");
  });

  test("a group kill reaches the grandchildren (their stdout closes too)", async () => {
    const child = await spawnChild({ argv: ["sh", "-c", "sleep 30 & sleep 30; wait"], ownProcessGroup: true });
    child.kill("SIGKILL", { group: true });
    const exit = await child.exited;
    expect(exit.signal).toBe("SIGKILL");
    expect(await readAll(child.stdout)).toBe(""); // ends only once the backgrounded sleep is gone as well
  });

  test("exited settles when the process ends, even while a grandchild holds stdout open", async () => {
    const child = await spawnChild({ argv: ["sh", "-c", "sleep 30 & echo started"], ownProcessGroup: true });
    expect(await child.exited).toEqual({ code: 0, signal: null });
    child.kill("SIGKILL", { group: true });
  });
});
