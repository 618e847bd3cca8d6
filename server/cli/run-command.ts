/**
 * `od run`: one run, in-process (no server), through the same run service the daemon uses.
 * Human output streams the answer and one line per tool call; `--json` prints every RunEvent as a JSON line.
 * Exit codes: 0 succeeded, 1 failed, 2 usage error, 130 canceled (Ctrl-C runs the cancel ladder).
 */
import { basename, resolve } from "node:path";
import { isPromptText } from "../contracts/prompt-text.ts";
import type { RunEventOf } from "../contracts/runs.ts";
import { OdError } from "../errors.ts";
import { resolveDataDir, dataPaths } from "../paths.ts";
import { placeOf } from "../machines/machine-of.ts";
import { LocationError } from "../machines/machine-url.ts";
import { parseLoggedEvent, type LoggedEvent } from "../store/event-json.ts";
import type { CommandIO, CommandSpec } from "./command.ts";
import { lineReader, terminalApprovals } from "./terminal-approvals.ts";
import { isPermissionMode, PERMISSION_MODES } from "../contracts/approval-values.ts";
import type { ServeRuntime } from "./serve-command.ts";
import { perEvent } from "../platform/jit-tiers.ts";

/** How long `od run` waits, after its run ended, for a sweep still going on on the project's machine. */
const REMOTE_SWEEP_WAIT_MS = 30_000;

export function runCommand(runtime: Pick<ServeRuntime, "openSqlite" | "bundledSkillFiles">): CommandSpec {
  return {
    name: "run",
    summary: "run one agent on one prompt in a project folder, without the server",
    details: 'The prompt is the last argument; "-" reads it from stdin.\nExit codes: 0 succeeded, 1 failed, 2 usage error, 130 canceled.',
    flags: [
      { name: "agent", type: "string", valueName: "ID", description: "agent to run (see `od agents`)" },
      { name: "project", type: "string", valueName: "DIR", description: "project folder (default: the current folder), or ssh://[user@]host[:port]/path or docker://CONTAINER/path" },
      { name: "conversation", type: "string", valueName: "ID", description: "continue this conversation (its id is in the start event)" },
      { name: "model", type: "string", valueName: "MODEL", description: "model id (default: the agent's own default)" },
      { name: "reasoning", type: "string", valueName: "LEVEL", description: "reasoning / effort level" },
      { name: "permission-mode", type: "string", valueName: "MODE", description: "bypass (default), ask (each tool call is asked on the terminal: y once, a for this run, n deny), or read-only" },
      { name: "trust-project-mcp", type: "boolean", description: "start the project's own MCP servers (.od/mcp-config.json) without the consent the page asks for" },
      { name: "json", type: "boolean", description: "print every run event as one JSON line" },
      { name: "data-dir", type: "string", valueName: "DIR", description: "where od keeps its data (default $OD_DATA_DIR or ~/.od)" },
    ],
    positionals: [{ name: "PROMPT", description: 'the prompt, or "-" to read it from stdin' }],
    async run({ flags, positionals }, io) {
      const agentId = flags.agent as string | undefined;
      if (!agentId) {
        io.stderr("od: run needs --agent <id> (see `od agents`)\n");
        return 2;
      }
      const permissionMode = flags["permission-mode"] ?? "bypass";
      if (!isPermissionMode(permissionMode)) {
        io.stderr(`od: --permission-mode must be one of ${PERMISSION_MODES.join(", ")}\n`);
        return 2;
      }
      const prompt = positionals[0] === "-" ? await readAll(io.stdin) : (positionals[0] ?? "");
      if (!isPromptText(prompt)) {
        io.stderr("od: the prompt is empty or only whitespace\n");
        return 2;
      }
      // Claimed once the prompt is read (until then Ctrl-C simply ends od): a Ctrl-C while the run is being set up
      // still cancels it through the ladder once it exists.
      const interrupted = io.interrupted;
      // A folder here (relative to the working directory) or on another machine (ssh://…, docker://…).
      let projectPath: string;
      try {
        const { machine, folder } = placeOf((flags.project as string | undefined) ?? ".", { env: io.env });
        projectPath = machine.projectPath(resolve(io.cwd, folder));
      } catch (error) {
        if (!(error instanceof LocationError)) throw error;
        io.stderr(`od: ${error.message}\n`);
        return 2;
      }
      const dataDir = resolveDataDir(io.env, flags["data-dir"] as string | undefined);
      const [{ Store }, { createServices }, { preparePrivateDataDir, tightenedNotice }] = await Promise.all([
        import("../store/store.ts"),
        import("../services.ts"),
        import("../private-data-dir.ts"),
      ]);
      const tightened = preparePrivateDataDir(dataDir);
      if (tightened.length) io.stderr(tightenedNotice(tightened));
      const store = Store.open(dataPaths(dataDir).database, runtime.openSqlite);
      try {
        const services = createServices({ store, dataDir, env: io.env, onlyAgentIds: [agentId], detectForRun: flags.model ? "with-model" : true, bundledSkillFiles: runtime.bundledSkillFiles, trustProjectMcp: flags["trust-project-mcp"] === true, runOwnsProcess: true });
        // The folder is checked (and resolved) on its machine; the project it already is, is reused.
        let project, createdProject;
        try {
          ({ project, created: createdProject } = await services.projects.ensure(basename(services.projects.placeOf(projectPath).folder) || "project", projectPath));
        } catch (error) {
          // A folder that cannot be a project (the filesystem root, a system folder, od's data dir) is a usage error;
          // a host that cannot be reached is a failure.
          if (!(error instanceof OdError)) throw error;
          io.stderr(`od: ${error.message}\n`);
          return isUsageError(error) ? 2 : 1;
        }
        let created;
        try {
          created = await services.runs.create({
            projectId: project.id,
            agentId,
            message: prompt,
            ...(flags.conversation ? { conversationId: flags.conversation as string } : {}),
            ...(flags.model ? { model: flags.model as string } : {}),
            ...(flags.reasoning ? { reasoning: flags.reasoning as string } : {}),
            ...(flags["permission-mode"] ? { permissionMode } : {}),
          });
        } catch (error) {
          // A rejected run leaves no trace: the folder becomes a project only once a run of it starts.
          if (createdProject) store.projects.delete(project.id);
          if (error instanceof OdError) {
            io.stderr(`od: ${error.message}\n`);
            return isUsageError(error) ? 2 : 1;
          }
          throw error;
        }
        void interrupted.then(() => services.runs.cancel(created.runId));
        void io.hurried?.then((signal) => {
          io.stderr(`od: ${signal} again: stopping the agent without waiting for it\n`);
          services.runs.hurry();
        });
        const printBatch = flags.json ? jsonPrinter(io) : humanPrinter(io);
        const approve = terminalApprovals({
          // The prompt came from stdin ("-"): it is no terminal to ask on.
          ...(permissionMode === "ask" && positionals[0] !== "-" && (await io.interactive?.()) ? { readLine: lineReader(io.stdin) } : {}),
          stderr: io.stderr,
          answer: (approvalId, decision, message, answers) => services.runs.answerApproval(created.runId, approvalId, decision, message, answers),
        });
        let status: string | undefined;
        // The live log's own events, a batch per wake-up, each batch one write to stdout.
        for await (const batch of services.runs.eventBatches(created.runId)) {
          printBatch(batch);
          for (const logged of batch) {
            if (logged.type !== "agent" || !logged.json.includes('"approval_request"')) continue;
            const event = parseLoggedEvent(logged);
            if (event.type === "agent" && event.event.type === "approval_request") approve(event.event);
          }
          const last = batch[batch.length - 1]!;
          if (last.type === "end") status = (parseLoggedEvent(last) as RunEventOf<"end">).status;
        }
        // A sweep on the project's machine that outlived the run (a slow host) is let finish: no later od may start
        // soon to retry it. Its record stays for the next od if it does not.
        await services.runs.remoteCleanupsSettled(REMOTE_SWEEP_WAIT_MS);
        return status === "succeeded" ? 0 : status === "canceled" ? 130 : 1;
      } finally {
        store.close();
      }
    },
  };
}

/** --json: the log's JSON text as it is, one line per event, one write per batch. */
function jsonPrinter(io: CommandIO) {
  const print = (batch: readonly LoggedEvent[]) => {
    let text = "";
    for (const logged of batch) text += logged.json + "\n";
    io.stdout(text);
  };
  perEvent(print);
  return print;
}

/** The answer as it streams and one line per tool call; stdout is gathered per batch (flushed before any stderr). */
function humanPrinter(io: CommandIO) {
  let out = "";
  let atLineStart = true;
  const flush = () => {
    if (out) io.stdout(out);
    out = "";
  };
  const stderr = (text: string) => {
    flush();
    io.stderr(text);
  };
  const line = (text: string) => {
    out += `${atLineStart ? "" : "\n"}${text}\n`;
    atLineStart = true;
  };
  // A run's error is held until the next event: when that is the end of a run that failed for the same reason, the
  // reason is printed once, as `od: run failed: …`, not once per event that carries it.
  let heldErrors: string[] = [];
  const printHeldErrors = () => {
    for (const message of heldErrors) stderr(`od: ${message}\n`);
    heldErrors = [];
  };
  const print = (logged: LoggedEvent) => {
    if (logged.type !== "agent" && logged.type !== "error" && logged.type !== "notice" && logged.type !== "end") return;
    const event = parseLoggedEvent(logged);
    if (event.type !== "error" && event.type !== "end") printHeldErrors();
    switch (event.type) {
      case "agent": {
        const agentEvent = event.event;
        if (agentEvent.type === "text_delta") {
          out += agentEvent.delta;
          atLineStart = agentEvent.delta.endsWith("\n");
        } else if (agentEvent.type === "tool_use") {
          // A sub-agent's calls are indented under the call that started it.
          line(`${agentEvent.parentToolUseId ? "  ↳" : "→"} ${agentEvent.name}${agentEvent.path ? ` ${agentEvent.path}` : ""} (${agentEvent.kind})`);
        } else if (agentEvent.type === "tool_result" && agentEvent.isError) {
          line(`  ✗ ${agentEvent.content.split("\n")[0]?.slice(0, 200) ?? ""}`);
        }
        return;
      }
      case "error":
        heldErrors.push(event.message);
        return;
      case "notice":
        stderr(`od: ${event.message}\n`);
        return;
      case "end":
        if (!atLineStart) out += "\n";
        heldErrors = heldErrors.filter((message) => message !== event.reason);
        printHeldErrors();
        if (event.status !== "succeeded") stderr(`${endLine(event)}${event.guidance ? `\n${event.guidance}` : ""}\n`);
        else if (event.warning) stderr(`od: warning: ${event.warning.message}\n`);
        for (const file of event.files) stderr(`wrote ${file}\n`);
        return;
    }
  };
  return (batch: readonly LoggedEvent[]) => {
    for (const logged of batch) print(logged);
    flush();
  };
}

/** `od: run canceled`, or `od: run failed: <reason>` (a reason that only repeats the status is not said twice). */
function endLine(end: RunEventOf<"end">): string {
  const reason = end.reason && end.reason !== end.status ? `: ${end.reason}` : "";
  return `od: run ${end.status}${reason}`;
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** A refusal of what the person typed (exit 2), not a failure of a machine or of od (exit 1). */
function isUsageError(error: OdError): boolean {
  return error.kind === "invalid" || error.kind === "not_found";
}
