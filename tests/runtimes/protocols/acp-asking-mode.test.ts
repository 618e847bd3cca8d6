// Issue #37: an ACP agent that opens its session in a mode that acts without asking (codex-acp's `auto`) is switched,
// for an ask or read-only run, to a mode it advertises that asks first; one already asking is left alone.
import { expect, test } from "bun:test";
import { askingModeOf } from "../../../server/runtimes/protocols/acp/asking-mode.ts";

const modes = (currentModeId: string, ...ids: string[]) => ({ sessionId: "s", modes: { currentModeId, availableModes: ids.map((id) => ({ id, name: id })) } });

test("codex-acp's auto session goes to read-only, where every change is asked", () => {
  expect(askingModeOf(modes("auto", "read-only", "auto", "full-access"))).toBe("read-only");
  expect(askingModeOf(modes("full-access", "read-only", "auto", "full-access"))).toBe("read-only");
});

test("a session already in a mode that asks, or offering none, is left as it is", () => {
  expect(askingModeOf(modes("default", "default", "acceptEdits", "plan", "bypassPermissions"))).toBeNull();
  expect(askingModeOf(modes("bypassPermissions", "default", "acceptEdits", "bypassPermissions"))).toBe("default");
  expect(askingModeOf(modes("build", "build", "plan"))).toBeNull();
  expect(askingModeOf({ sessionId: "s" })).toBeNull();
  expect(askingModeOf(null)).toBeNull();
});
