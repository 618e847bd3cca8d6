/** Capability maps from recorded help output (claude 2.1.332, opencode 1.18.33) and hidden-flag rejection text. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { hiddenFlagSupported, parseCapabilities } from "../../server/runtimes/capabilities.ts";
import { claudeAgentDef } from "../../server/runtimes/defs/claude.ts";
import { OPENCODE_CAPABILITY_FLAGS } from "../../server/runtimes/defs/opencode.ts";

const fixture = (cli: string, name: string) => readFileSync(join(import.meta.dir, "..", "fixtures", cli, name), "utf8");

test("opencode run --help: --auto, --dir, --variant, --pure; no --dangerously-skip-permissions", () => {
  expect(parseCapabilities(fixture("opencode", "run-help.txt"), OPENCODE_CAPABILITY_FLAGS)).toEqual({
    skipPermissions: false,
    autoApprove: true,
    workspaceDir: true,
    variantFlag: true,
    pureMode: true,
  });
});

test("claude --help advertises partial messages, --add-dir and --mcp-config", () => {
  const caps = parseCapabilities(fixture("claude", "help.txt"), claudeAgentDef().capabilityFlags ?? {});
  expect(caps.partialMessages).toBe(true);
  expect(caps.addDir).toBe(true);
  expect(caps.mcpConfig).toBe(true);
});

test("a flag is matched whole: --dir is not --directory", () => {
  expect(parseCapabilities("  --directory <d>", { "--dir": "dir" })).toEqual({ dir: false });
  expect(parseCapabilities("  --dir, -d <d>", { "--dir": "dir" })).toEqual({ dir: true });
});

test("hidden flags: a value complaint means supported, an unknown-option complaint means not", () => {
  expect(hiddenFlagSupported("error: option '--thinking-display <mode>' argument 'x' is invalid. Allowed choices are summarized, full.")).toBe(true);
  expect(hiddenFlagSupported("error: unknown option '--thinking-display'")).toBe(false);
});
