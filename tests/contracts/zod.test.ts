import { describe, expect, test } from "bun:test";
import { ExecutableStamp } from "../../server/contracts/agent-detection.ts";
import { z } from "../../server/contracts/zod.ts";

/** Counts the functions built from source (`new Function`) while `parse` runs. */
function codeCompiledDuring(parse: () => unknown): number {
  const original = globalThis.Function;
  let compiled = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args, newTarget) {
      compiled++;
      return Reflect.construct(target, args, newTarget);
    },
  });
  try {
    parse();
  } finally {
    globalThis.Function = original;
  }
  return compiled;
}

describe("od's zod", () => {
  test("an object schema's first parse generates no parser code", () => {
    const schema = z.object({ id: z.string(), size: z.number() });
    expect(codeCompiledDuring(() => schema.parse({ id: "a", size: 1 }))).toBe(0);
  });

  test("so do the contracts' schemas", () => {
    const stamp = { path: "/usr/bin/claude", realPath: "/opt/claude/bin/claude", size: 10, mtimeMs: 1 };
    expect(codeCompiledDuring(() => ExecutableStamp.parse(stamp))).toBe(0);
    expect(ExecutableStamp.safeParse({ ...stamp, size: "10" }).success).toBe(false);
  });

  test("the count is real: with zod's default, the same first parse compiles a parser", () => {
    z.config({ jitless: false });
    try {
      const schema = z.object({ id: z.string(), size: z.number() });
      expect(codeCompiledDuring(() => schema.parse({ id: "a", size: 1 }))).toBeGreaterThan(0);
    } finally {
      z.config({ jitless: true });
    }
  });
});
