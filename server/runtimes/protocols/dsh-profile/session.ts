/**
 * The DSH profile transport: owns one `dsh --profile open-design --stdio` process's pipes for one run. Reads
 * frames (1 MiB each at most), drives the state machine, writes `execute`/`cancel`, and exposes the unified
 * event stream and one result, like every other transport (../types.ts).
 */
import type { AgentEvent } from "../../../contracts/events.ts";
import { LineBuffer, LineTooLong } from "../../streams/line-buffer.ts";
import { EventQueue } from "../event-queue.ts";
import { explicitModel, type ProtocolResult, type ProtocolSession, type TransportIO, type TransportOptions } from "../types.ts";
import { DshProfileErrorCode, MAX_FRAME_BYTES } from "./errors.ts";
import type { HostCommand } from "./frames.ts";
import { DshProfileStateMachine, type Step } from "./state-machine.ts";

/** The common transport options, plus the id that scopes this run's frames (the OD run id). */
export type DshProfileOptions = Pick<TransportOptions, "cwd" | "prompt" | "model" | "reasoning" | "resumeSessionId" | "log"> & {
  requestId?: string;
};

export function startDshProfileSession(io: TransportIO, options: DshProfileOptions): ProtocolSession & { ignoredFrames(): number } {
  const reasoning = explicitModel(options.reasoning);
  const machine = new DshProfileStateMachine({
    requestId: options.requestId ?? `od-run-${crypto.randomUUID()}`,
    cwd: options.cwd,
    prompt: options.prompt,
    model: explicitModel(options.model),
    reasoningEffort: reasoning,
    resumeSessionId: options.resumeSessionId ?? null,
  });
  const events = new EventQueue<AgentEvent>();
  let settle: (result: ProtocolResult) => void = () => undefined;
  const result = new Promise<ProtocolResult>((resolve) => {
    settle = resolve;
  });
  let writes = Promise.resolve();

  const send = (command: HostCommand) => {
    writes = writes
      .then(() => io.stdin.write(`${JSON.stringify(command)}\n`))
      .catch((error: unknown) => options.log?.(`dsh-profile: could not write ${command.type}: ${String(error)}`));
  };

  const apply = (step: Step) => {
    events.push(...step.events);
    for (const command of step.send) send(command);
    if (step.done) {
      settle(step.done);
      events.close();
      // Closing stdin tells the profile we are done; the run service's cancel ladder reaps the process.
      void writes.then(() => io.stdin.end());
    }
  };

  void (async () => {
    const lines = new LineBuffer(MAX_FRAME_BYTES);
    const feed = (item: string | LineTooLong, unterminated = false) =>
      apply(item instanceof LineTooLong ? machine.onFrameTooLarge(item.bytes) : machine.onLine(item, unterminated));
    for await (const chunk of io.stdout) {
      for (const item of lines.push(chunk)) {
        feed(item);
        if (machine.isDone) return;
      }
    }
    for (const item of lines.flush()) feed(item, true);
    apply(machine.onEof());
  })()
    .catch((error: unknown) => apply(machine.fail(DshProfileErrorCode.PROTOCOL_ERROR, `reading the profile failed: ${String(error)}`)))
    .finally(() => {
      if (machine.ignoredFrames > 0) options.log?.(`dsh-profile: ignored ${machine.ignoredFrames} frame(s) for other requests`);
    });

  return {
    events,
    result,
    ignoredFrames: () => machine.ignoredFrames,
    async cancel() {
      apply(machine.requestCancel());
      await writes;
    },
  };
}
