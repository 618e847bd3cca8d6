import { describe, expect, test } from "bun:test";
import { eagerCommand, type CommandEntry, type CommandIO, type CommandSpec } from "../../server/cli/command.ts";
import { dispatch, parseArgs, UsageError } from "../../server/cli/dispatch.ts";

function fakeIO() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    stdin: (async function* () {})(),
    env: {},
    cwd: "/",
    interrupted: new Promise(() => {}),
  };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

const calls: unknown[] = [];
const demo: CommandSpec = {
  name: "demo",
  summary: "a demo",
  flags: [
    { name: "port", type: "number", description: "p" },
    { name: "no-open", type: "boolean", description: "n" },
    { name: "dir", type: "string", description: "d", repeatable: true },
  ],
  positionals: [{ name: "FILE", description: "f", optional: true }],
  async run(args) {
    calls.push(args);
    return 0;
  },
};
const other: CommandSpec = { name: "other", summary: "other", flags: [], run: async () => 7 };
const commands = [demo, other].map(eagerCommand);
const options = { version: "9.9.9", defaultCommand: "demo" };

describe("parseArgs", () => {
  test("flags with separate and inline values, booleans, repeatables, positionals", () => {
    expect(parseArgs(demo, ["--port", "0", "--no-open", "--dir=a", "--dir", "b", "x.jsonl"])).toEqual({
      flags: { port: 0, "no-open": true, dir: ["a", "b"] },
      positionals: ["x.jsonl"],
    });
  });
  test("`-` is a positional (stdin)", () => {
    expect(parseArgs(demo, ["-"]).positionals).toEqual(["-"]);
  });
  test("errors: unknown flag, missing value, bad number, extra positional", () => {
    expect(() => parseArgs(demo, ["--nope"])).toThrow(UsageError);
    expect(() => parseArgs(demo, ["--port"])).toThrow("needs a value");
    expect(() => parseArgs(demo, ["--port", "abc"])).toThrow("must be a number");
    expect(() => parseArgs(demo, ["a", "b"])).toThrow("unexpected argument");
    expect(() => parseArgs(demo, ["-x"])).toThrow("unknown flag -x");
  });
});

describe("dispatch", () => {
  test("--version prints od <version>", async () => {
    const f = fakeIO();
    expect(await dispatch(["--version"], commands, f.io, options)).toBe(0);
    expect(f.out()).toBe("od 9.9.9\n");
  });
  test("--help lists every command and marks the default", async () => {
    const f = fakeIO();
    expect(await dispatch(["--help"], commands, f.io, options)).toBe(0);
    expect(f.out()).toContain("demo");
    expect(f.out()).toContain("(default)");
    expect(f.out()).toContain("other");
  });
  test("<cmd> --help prints that command's flags", async () => {
    const f = fakeIO();
    expect(await dispatch(["demo", "--help"], commands, f.io, options)).toBe(0);
    expect(f.out()).toContain("--port");
    expect(f.out()).toContain("usage: od demo");
  });
  test("no command runs the default with the flags given", async () => {
    const f = fakeIO();
    calls.length = 0;
    expect(await dispatch(["--port", "5"], commands, f.io, options)).toBe(0);
    expect(calls).toEqual([{ flags: { port: 5 }, positionals: [] }]);
  });
  test("unknown command: exit 2 with one line on stderr", async () => {
    const f = fakeIO();
    expect(await dispatch(["bogus"], commands, f.io, options)).toBe(2);
    expect(f.err().trim().split("\n")).toHaveLength(1);
    expect(f.err()).toContain("unknown command 'bogus'");
  });
  test("unknown flag: exit 2 with one line on stderr", async () => {
    const f = fakeIO();
    expect(await dispatch(["other", "--x"], commands, f.io, options)).toBe(2);
    expect(f.err().trim().split("\n")).toHaveLength(1);
  });
  test("the command's exit code is returned", async () => {
    expect(await dispatch(["other"], commands, fakeIO().io, options)).toBe(7);
  });
  test("only the command that runs is loaded; help and unknown-command errors need no other", async () => {
    const loaded: string[] = [];
    const lazy = (spec: CommandSpec): CommandEntry => ({ name: spec.name, load: async () => (loaded.push(spec.name), spec) });
    const entries = [lazy(demo), lazy(other)];
    expect(await dispatch(["other"], entries, fakeIO().io, options)).toBe(7);
    expect(loaded).toEqual(["other"]);
    expect(await dispatch(["bogus"], entries, fakeIO().io, options)).toBe(2);
    expect(await dispatch(["--version"], entries, fakeIO().io, options)).toBe(0);
    expect(loaded).toEqual(["other"]);
    const f = fakeIO();
    expect(await dispatch(["--help"], entries, f.io, options)).toBe(0);
    expect(f.out()).toContain("a demo");
  });
});

describe("od's commands", () => {
  test("every entry loads a spec of its own name, and serve (the default) is loaded with the shell", async () => {
    const { buildCommands } = await import("../../server/cli/commands.ts");
    const runtime = { openSqlite: () => { throw new Error("unused"); }, serve: () => { throw new Error("unused"); } };
    const entries = buildCommands(runtime as never);
    expect(entries.map((e) => e.name)).toEqual(["serve", "open", "agents", "run", "parse", "setup"]);
    for (const entry of entries) expect((await entry.load()).name).toBe(entry.name);
    expect(entries[0]!.load()).not.toBeInstanceOf(Promise);
  });
});
