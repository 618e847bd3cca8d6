import { describe, expect, test } from "bun:test";
import {
  checkPromptArgvBudget,
  checkWindowsCmdShimCommandLineBudget,
  checkWindowsDirectExeCommandLineBudget,
  quoteCmdArg,
  quoteLibuvArg,
  WINDOWS_COMMAND_LINE_LIMIT,
  windowsCmdShimCommandLine,
  windowsDirectCommandLine,
} from "../../server/runtimes/prompt-budget.ts";
import { baseAgentDefs } from "../../server/runtimes/registry.ts";
import { deepseekAgentDef } from "../../server/runtimes/defs/deepseek.ts";

const budgetDef = { id: "argv-agent", name: "Argv Agent", maxPromptArgBytes: 30_000 };
const stdinDef = { id: "stdin-agent", name: "Stdin Agent" };
const SHIM = "C:\\Users\\me\\AppData\\Roaming\\npm\\deepseek.cmd";
const EXE = "C:\\Users\\me\\.cargo\\bin\\deepseek.exe";
/** A JSON-ish, quote-heavy prompt: 2 800 `{"k":"v"}` objects = 28 000 bytes raw, under the 30 000-byte budget. */
const QUOTE_HEAVY = '{"k":"v"} '.repeat(2_800);

describe("checkPromptArgvBudget", () => {
  test("a short prompt passes on every platform", () => {
    for (const platform of ["win32", "darwin", "linux"] as const) {
      expect(checkPromptArgvBudget(budgetDef, "make a landing page", platform)).toBeNull();
    }
  });

  test("win32 uses maxPromptArgBytes itself", () => {
    const error = checkPromptArgvBudget(budgetDef, "x".repeat(30_001), "win32");
    expect(error).toMatchObject({ code: "AGENT_PROMPT_TOO_LARGE", bytes: 30_001, limit: 30_000 });
    expect(checkPromptArgvBudget(budgetDef, "x".repeat(30_000), "win32")).toBeNull();
  });

  test("counts UTF-8 bytes, not characters", () => {
    const prompt = "é".repeat(15_001); // 15 001 chars, 30 002 bytes
    expect(checkPromptArgvBudget(budgetDef, prompt, "win32")).toMatchObject({ bytes: 30_002, limit: 30_000 });
  });

  test("linux floors the limit at 100 000 bytes", () => {
    expect(checkPromptArgvBudget(budgetDef, "x".repeat(100_000), "linux")).toBeNull();
    expect(checkPromptArgvBudget(budgetDef, "x".repeat(100_001), "linux")).toMatchObject({ limit: 100_000, bytes: 100_001 });
  });

  test("darwin floors the limit at 262 144 bytes", () => {
    expect(checkPromptArgvBudget(budgetDef, "x".repeat(262_144), "darwin")).toBeNull();
    expect(checkPromptArgvBudget(budgetDef, "x".repeat(262_145), "darwin")).toMatchObject({ limit: 262_144 });
  });

  test("a def budget above the floor wins over the floor", () => {
    const big = { ...budgetDef, maxPromptArgBytes: 500_000 };
    expect(checkPromptArgvBudget(big, "x".repeat(400_000), "linux")).toBeNull();
    expect(checkPromptArgvBudget(big, "x".repeat(500_001), "darwin")).toMatchObject({ limit: 500_000 });
  });

  test("the message is actionable", () => {
    const message = checkPromptArgvBudget(budgetDef, "x".repeat(40_000), "win32")?.message ?? "";
    expect(message).toContain("Argv Agent");
    expect(message).toContain("command-line argument");
    expect(message).toContain("skills or design-system context");
    expect(message).toContain("shorten the conversation");
    expect(message).toContain("stdin");
  });

  test("the shipped deepseek def is guarded", () => {
    expect(checkPromptArgvBudget(deepseekAgentDef(), "x".repeat(30_001), "win32")?.code).toBe("AGENT_PROMPT_TOO_LARGE");
  });
});

describe("checkWindowsCmdShimCommandLineBudget", () => {
  test("a short prompt through a shim passes", () => {
    expect(checkWindowsCmdShimCommandLineBudget(SHIM, ["exec", "--auto", "make a page"], budgetDef)).toBeNull();
  });

  test("an oversized prompt through a shim fails with the command-line length", () => {
    const error = checkWindowsCmdShimCommandLineBudget(SHIM, ["exec", "x".repeat(33_000)], budgetDef);
    expect(error).toMatchObject({ code: "AGENT_PROMPT_TOO_LARGE", limit: WINDOWS_COMMAND_LINE_LIMIT });
    expect(error?.commandLineLength).toBeGreaterThan(33_000);
    expect(error?.message).toContain(".cmd shim");
    expect(error?.message).toContain("stdin");
  });

  test("matches .cmd and .bat in any case, nothing else", () => {
    const huge = ["x".repeat(40_000)];
    expect(checkWindowsCmdShimCommandLineBudget("C:\\bin\\deepseek.CMD", huge, budgetDef)).not.toBeNull();
    expect(checkWindowsCmdShimCommandLineBudget("C:\\bin\\deepseek.Bat", huge, budgetDef)).not.toBeNull();
    expect(checkWindowsCmdShimCommandLineBudget(EXE, huge, budgetDef)).toBeNull();
    expect(checkWindowsCmdShimCommandLineBudget("/usr/local/bin/deepseek", huge, budgetDef)).toBeNull();
  });

  test("a quote-heavy prompt within the raw budget still overflows the cmd line", () => {
    expect(QUOTE_HEAVY.length).toBeLessThan(30_000);
    expect(checkPromptArgvBudget(budgetDef, QUOTE_HEAVY, "win32")).toBeNull();
    const error = checkWindowsCmdShimCommandLineBudget(SHIM, ["exec", "--auto", QUOTE_HEAVY], budgetDef);
    expect(error?.commandLineLength).toBeGreaterThan(WINDOWS_COMMAND_LINE_LIMIT);
  });

  test("percent signs expand to \"^%\"", () => {
    const prompt = "100% ".repeat(5_000); // 25 000 chars; each % becomes 4 chars
    expect(checkWindowsCmdShimCommandLineBudget(SHIM, [prompt], budgetDef)).not.toBeNull();
  });

  test("cmd quoting rules", () => {
    expect(quoteCmdArg("plain")).toBe("plain");
    expect(quoteCmdArg("")).toBe('""');
    expect(quoteCmdArg("two words")).toBe('"two words"');
    expect(quoteCmdArg('say "hi"')).toBe('"say ""hi"""');
    expect(quoteCmdArg("50%")).toBe('"50"^%""');
    expect(quoteCmdArg("a&b")).toBe('"a&b"');
    expect(windowsCmdShimCommandLine("C:\\n\\ds.cmd", ["exec", "hi there"])).toBe('cmd.exe /d /s /c "C:\\n\\ds.cmd exec "hi there""');
  });
});

describe("checkWindowsDirectExeCommandLineBudget", () => {
  test("a short prompt to an exe passes", () => {
    expect(checkWindowsDirectExeCommandLineBudget(EXE, ["exec", "--auto", "make a page"], budgetDef)).toBeNull();
  });

  test("an oversized prompt to an exe fails", () => {
    const error = checkWindowsDirectExeCommandLineBudget(EXE, ["exec", "x".repeat(33_000)], budgetDef);
    expect(error).toMatchObject({ code: "AGENT_PROMPT_TOO_LARGE", limit: WINDOWS_COMMAND_LINE_LIMIT });
    expect(error?.commandLineLength).toBeGreaterThan(33_000);
    expect(error?.message).toContain("CreateProcess");
  });

  test("a quote-heavy prompt within the raw budget still overflows the exe command line", () => {
    expect(checkPromptArgvBudget(budgetDef, QUOTE_HEAVY, "win32")).toBeNull();
    const error = checkWindowsDirectExeCommandLineBudget(EXE, ["exec", QUOTE_HEAVY], budgetDef);
    expect(error?.commandLineLength).toBeGreaterThan(WINDOWS_COMMAND_LINE_LIMIT);
  });

  test("UNC paths are Windows executables; POSIX paths are not measured", () => {
    const huge = ["x".repeat(40_000)];
    expect(checkWindowsDirectExeCommandLineBudget("\\\\server\\share\\deepseek.exe", huge, budgetDef)).not.toBeNull();
    expect(checkWindowsDirectExeCommandLineBudget("/usr/local/bin/deepseek", huge, budgetDef)).toBeNull();
  });

  test("libuv quoting rules", () => {
    expect(quoteLibuvArg("plain")).toBe("plain");
    expect(quoteLibuvArg("")).toBe('""');
    expect(quoteLibuvArg("a b")).toBe('"a b"');
    expect(quoteLibuvArg('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteLibuvArg('a\\"b c')).toBe('"a\\\\\\"b c"');
    expect(quoteLibuvArg("C:\\dir with space\\")).toBe('"C:\\dir with space\\\\"');
    expect(quoteLibuvArg("no\\space\\needed")).toBe("no\\space\\needed");
    expect(windowsDirectCommandLine("C:\\ds.exe", ["exec", "hi there"])).toBe('C:\\ds.exe exec "hi there"');
  });
});

describe("the Windows guards", () => {
  test("are mutually exclusive: a resolution is measured by exactly one of them", () => {
    const huge = ["x".repeat(40_000)];
    for (const bin of [SHIM, "C:\\x\\y.BAT", EXE, "\\\\srv\\share\\agent.exe", "D:/tools/agent"]) {
      const shim = checkWindowsCmdShimCommandLineBudget(bin, huge, budgetDef);
      const direct = checkWindowsDirectExeCommandLineBudget(bin, huge, budgetDef);
      expect([shim, direct].filter((error) => error !== null)).toHaveLength(1);
    }
  });

  test("defs without maxPromptArgBytes never fail any guard", () => {
    const huge = "x".repeat(1_000_000);
    for (const def of [stdinDef, ...baseAgentDefs().filter((candidate) => !candidate.maxPromptArgBytes)]) {
      expect(checkPromptArgvBudget(def, huge, "win32")).toBeNull();
      expect(checkWindowsCmdShimCommandLineBudget(SHIM, [huge], def)).toBeNull();
      expect(checkWindowsDirectExeCommandLineBudget(EXE, [huge], def)).toBeNull();
    }
  });
});
