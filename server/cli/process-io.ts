/** CommandIO backed by the real process: stdio, environment, and SIGINT/SIGTERM as the interrupt. */
import type { CommandIO } from "./command.ts";
import { fdWriter } from "./fd-writer.ts";

export function processIO(): CommandIO {
  const interrupted = new Promise<string>((resolve) => {
    const onSignal = (signal: string) => {
      resolve(signal);
      // A second Ctrl-C while shutting down means "now": fall back to the default behaviour.
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
  return {
    stdout: fdWriter(1, () => process.stdout),
    stderr: fdWriter(2, () => process.stderr),
    // A getter: creating process.stdin builds Node's stream machinery, milliseconds that `od serve` never needs.
    get stdin() {
      return process.stdin as AsyncIterable<Uint8Array>;
    },
    env: process.env,
    cwd: process.cwd(),
    interrupted,
  };
}
