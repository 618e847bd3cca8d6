/**
 * The profile's startup entry (`@open-design/dsh-runtime/startup`). The harness calls `startup(context)` with the
 * arguments that follow `--profile open-design` and a harness object (HARNESS_INTERFACE.md); exactly one mode:
 *   --probe   write one `probe` frame
 *   --models  write one `models` frame
 *   --stdio   write `ready`, accept one `execute` (and `cancel`s), stream frames, end with one `result`
 * Resolves with the process exit code; the host exits with it.
 */
import { RUNTIME_NAME } from "./compatibility.mjs";
import { startExecution } from "./execute.mjs";
import { readLines } from "./lines.mjs";
import { handshakeFrame, parseHostCommand, ProfileErrorCode, protocolErrorFrame, V } from "./protocol.mjs";

const MODES = ["--probe", "--models", "--stdio"];
export const USAGE = "usage: dsh --profile open-design (--probe | --models | --stdio)";

/**
 * @typedef {import("./index.mjs").StartupContext} StartupContext
 */

/**
 * @param {StartupContext} context
 * @returns {Promise<number>}
 */
export async function startup(context) {
  const modes = context.argv.filter((arg) => MODES.includes(arg));
  const unknown = context.argv.filter((arg) => !MODES.includes(arg));
  if (modes.length !== 1 || unknown.length > 0) {
    await context.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const out = frameWriter(context.stdout);
  switch (modes[0]) {
    case "--probe":
      out.emit(handshakeFrame("probe"));
      await out.drained();
      return 0;
    case "--models":
      return listModels(context, out);
    default:
      return serveStdio(context, out);
  }
}

export default startup;

/**
 * @param {StartupContext} context
 * @param {ReturnType<typeof frameWriter>} out
 */
async function listModels(context, out) {
  try {
    const models = await context.harness.listModels();
    out.emit({ v: V, type: "models", runtime: RUNTIME_NAME, models });
    await out.drained();
    return 0;
  } catch (error) {
    out.emit(protocolErrorFrame(undefined, ProfileErrorCode.MODELS_FAILED, error instanceof Error ? error.message : String(error)));
    await out.drained();
    return 1;
  }
}

/**
 * @param {StartupContext} context
 * @param {ReturnType<typeof frameWriter>} out
 */
async function serveStdio(context, out) {
  out.emit(handshakeFrame("ready"));
  /** @type {ReturnType<typeof startExecution> | undefined} */
  let execution;
  /** Cancels that arrive before their execute are latched and replayed. */
  const latchedCancels = new Set();
  /** @type {(value: "eof") => void} */
  let signalEof = () => undefined;
  const stdinClosed = new Promise((resolve) => {
    signalEof = resolve;
  });

  /** @type {(execution: ReturnType<typeof startExecution>) => void} */
  let executionStarted = () => undefined;
  const started = new Promise((resolve) => {
    executionStarted = resolve;
  });

  const readCommands = (async () => {
    for await (const line of readLines(context.stdin)) {
      const parsed = parseHostCommand(line);
      if (!parsed.ok) {
        out.emit(protocolErrorFrame(parsed.requestId, ProfileErrorCode.INVALID_COMMAND, parsed.message));
        continue;
      }
      const command = parsed.command;
      if (command.type === "cancel") {
        if (execution?.requestId === command.requestId) execution.cancel();
        else if (execution === undefined) latchedCancels.add(command.requestId);
        continue;
      }
      if (execution !== undefined) {
        out.emit(protocolErrorFrame(command.requestId, ProfileErrorCode.BUSY, "this process already accepted an execute"));
        continue;
      }
      execution = startExecution(command, context.harness, out.emit);
      if (latchedCancels.has(command.requestId)) execution.cancel();
      executionStarted(execution);
    }
    signalEof("eof");
  })();
  readCommands.catch(() => signalEof("eof"));

  const first = await Promise.race([started, stdinClosed]);
  if (first === "eof") {
    // The host hung up before sending work: nothing to answer.
    await context.stderr.write("open-design profile: stdin closed before execute\n");
    await out.drained();
    return 0;
  }
  const code = await /** @type {ReturnType<typeof startExecution>} */ (first).done;
  await out.drained();
  return code;
}

/**
 * Serialises frames onto the host's stdout, one JSON line each, in emit order.
 * @param {StartupContext["stdout"]} stdout
 */
function frameWriter(stdout) {
  let queue = Promise.resolve();
  return {
    /** @param {Record<string, unknown>} frame */
    emit(frame) {
      const line = `${JSON.stringify(frame)}\n`;
      queue = queue.then(() => stdout.write(line)).then(() => undefined);
    },
    drained: () => queue,
  };
}
