// A local run's prompt file and MCP config live in a private folder of the run's (mkdtemp, 0700), never at a
// predictable name in the shared temp dir: a second local account that plants a symlink or a file of its own at
// the old names (od-prompt-<run>-<attempt>.md, od-mcp-<run>.json) gets nothing, breaks nothing, and cannot read
// what the agent reads. The folder is gone when the run ends.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRunInputs, type RunInputsProvider } from "../../server/inputs/run-inputs.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { BUN, FAKE_CLI, runHarness } from "../support/fake-agents.ts";
import { otherUser, RUNUSER, type OtherUser } from "../support/other-user.ts";
import { tempDir } from "../support/temp.ts";

const fixture = (cli: string, scenario: string) => join(import.meta.dir, "..", "fixtures", cli, `${scenario}.jsonl`);
const def = (id: string) => getAgentDef(id)! as RuntimeAgentDef;
const TIMEOUT = 60_000;

let other: OtherUser;
let temp: { path: string; [Symbol.dispose](): void };
/** A world-writable sticky folder, like /tmp: the temp dir of od (TMPDIR) for these tests. */
let shared: string;
let previousTmp: string | undefined;

beforeAll(() => {
  other = otherUser();
  temp = tempDir("od-temp-files-");
  chmodSync(temp.path, 0o711); // the other account may pass through to the shared folder, nothing more
  shared = join(temp.path, "tmp");
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  previousTmp = process.env.TMPDIR;
  process.env.TMPDIR = shared;
});

afterAll(() => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  temp[Symbol.dispose]();
});

/** What the agent saw of a file it was handed with `flag`: its path, its folder's mode and owner, whether the other account could read it, its text. */
type Seen = { path: string; folderMode: string; folderUid: number; otherCanRead: boolean; text: string };

/**
 * A shim that, for `--prompt-file` and `--mcp-config`, records the file's folder (mode, owner), whether the other
 * account can read the file, and its text — while the run is live — then hands over to the fake CLI.
 */
function recordingShim(binDir: string, name: string, capture: string): void {
  const path = join(binDir, name);
  writeFileSync(path, `#!/bin/sh
# The check itself works: the other account reads a world-readable file.
if "${RUNUSER}" -u ${other.name} -- cat /etc/passwd >/dev/null 2>&1; then echo "control=1" >> "${capture}"; fi
prev=""
for a in "$@"; do
  case "$prev" in
    --prompt-file|--mcp-config)
      if "${RUNUSER}" -u ${other.name} -- cat -- "$a" >/dev/null 2>&1; then readable=1; else readable=0; fi
      printf '%s\\n%s\\n%s\\n%s\\n' "$prev" "$a" "$(stat -c '%a %u' -- "$(dirname -- "$a")")" "$readable" >> "${capture}"
      cat -- "$a" | tr '\\n' ' ' >> "${capture}"
      printf '\\n' >> "${capture}"
      ;;
  esac
  prev=$a
done
exec "${BUN}" "${FAKE_CLI}" "$@"
`);
  chmodSync(path, 0o755);
}

function seen(capture: string, flag: string): Seen | undefined {
  const lines = existsSync(capture) ? readFileSync(capture, "utf8").split("\n") : [];
  expect(lines).toContain("control=1");
  const at = lines.indexOf(flag);
  if (at < 0) return undefined;
  const [mode, uid] = lines[at + 2]!.split(" ");
  return { path: lines[at + 1]!, folderMode: mode!, folderUid: Number(uid), otherCanRead: lines[at + 3] === "1", text: lines[at + 4]! };
}

/** Run inputs that, before the run writes anything, let the other account plant its traps at the old names. */
function trappedInputs(base: RunInputsProvider, trap: (runId: string) => void): RunInputsProvider {
  return {
    prepare: async (request) => {
      trap(request.runId);
      return base.prepare(request);
    },
    prepareRemote: (request) => base.prepareRemote(request),
  };
}

describe("a local run's temp files in a shared temp dir", () => {
  test("the prompt file: a symlink planted at the old name is not followed, and no other user can read the file", async () => {
    const victim = join(temp.path, "victim.txt");
    writeFileSync(victim, "precious", { mode: 0o600 });
    const capture = join(temp.path, "atomcode-seen.txt");
    const planted: string[] = [];
    await using h = await runHarness({
      defs: [def("atomcode")],
      shims: {},
      steps: [{ out: "done\n" }],
      inputs: trappedInputs(createRunInputs(), (runId) => {
        for (const attempt of [0, 1]) {
          const path = join(shared, `od-prompt-${runId}-${attempt}.md`);
          expect(other.run(["ln", "-s", victim, path]).code).toBe(0);
          planted.push(path);
        }
      }),
    });
    recordingShim(h.binDir, "atomcode", capture);
    const { events } = await h.run({ agentId: "atomcode", message: "write the release notes" });
    expect(events.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
    expect(readFileSync(victim, "utf8")).toBe("precious");
    const prompt = seen(capture, "--prompt-file")!;
    expect(prompt.text).toContain("write the release notes");
    expect(planted).not.toContain(prompt.path);
    expect([prompt.folderMode, prompt.folderUid, prompt.otherCanRead]).toEqual(["700", process.getuid!(), false]);
    expect(existsSync(prompt.path)).toBe(false); // removed with its folder when the run ended
  }, TIMEOUT);

  test("the MCP config: a file of another user's at the old name receives nothing, and the agent still gets its servers", async () => {
    const capture = join(temp.path, "claude-seen.txt");
    const mcpPath = join(temp.path, "mcp.json");
    writeFileSync(mcpPath, JSON.stringify({ servers: [{ name: "db", command: "mcp-db", env: { DB_TOKEN: "s3cret" } }] }), { mode: 0o600 });
    let planted = "";
    await using h = await runHarness({
      defs: [def("claude")],
      shims: {},
      steps: [{ readLine: true }, { outFile: fixture("claude", "text") }],
      inputs: trappedInputs(createRunInputs({ userMcpPath: mcpPath }), (runId) => {
        planted = join(shared, `od-mcp-${runId}.json`);
        // World-writable, so a writer that opens it without O_EXCL fills it for them.
        expect(other.run(["sh", "-c", 'umask 0; : > "$1"', "sh", planted]).code).toBe(0);
      }),
    });
    recordingShim(h.binDir, "claude", capture);
    const { events } = await h.run({ agentId: "claude", message: "hi" });
    expect(events.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
    expect(events.filter((e) => e.type === "diagnostic" && e.kind === "mcp_not_forwarded")).toEqual([]);
    expect(statSync(planted).size).toBe(0);
    const config = seen(capture, "--mcp-config")!;
    expect(config.path).not.toBe(planted);
    expect(JSON.parse(config.text)).toMatchObject({ mcpServers: { db: { command: "mcp-db" } } });
    expect([config.folderMode, config.folderUid, config.otherCanRead]).toEqual(["700", process.getuid!(), false]);
    expect(existsSync(config.path)).toBe(false);
  }, TIMEOUT);
});
