/** CommandIO backed by the real process: stdio, environment, and SIGINT/SIGTERM as the interrupt. */
import type { CommandIO } from "./command.ts";
import { fdWriter } from "./fd-writer.ts";

export function processIO(): CommandIO {
  let interrupt: (signal: string) => void = () => {};
  let hurry: (signal: string) => void = () => {};
  const interrupted = new Promise<string>((resolve) => (interrupt = resolve));
  const hurried = new Promise<string>((resolve) => (hurry = resolve));
  // A command that reads `interrupted` stops by itself; any other (`od agents`, `od parse -`) is simply killed.
  let claimed = false;
  let received = 0;
  // The handlers stay for the whole life of the process: a second Ctrl-C (or npm's forwarded copy of the first one)
  // must never fall back to the default action, which kills od before its cancel ladder has stopped the agents.
  const onSignal = (signal: NodeJS.Signals) => {
    if (!claimed) {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      process.kill(process.pid, signal);
      return;
    }
    received += 1;
    if (received === 1) interrupt(signal);
    else hurry(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    stdout: fdWriter(1, () => process.stdout),
    stderr: fdWriter(2, () => process.stderr),
    // A getter: creating process.stdin builds Node's stream machinery, milliseconds that `od serve` never needs.
    get stdin() {
      return process.stdin as AsyncIterable<Uint8Array>;
    },
    // node:tty is loaded only when a run asks: the shell and a plain `od run` load no built-in they do not need.
    interactive: async () => {
      const { isatty } = await import("node:tty");
      return isatty(0) && isatty(2);
    },
    env: process.env,
    cwd: process.cwd(),
    get interrupted() {
      claimed = true;
      return interrupted;
    },
    hurried,
  };
}
