/** CommandIO backed by the real process: stdio, environment, and SIGINT/SIGTERM as the interrupt. */
import type { CommandIO } from "./command.ts";

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
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    // A getter: creating process.stdin builds Node's stream machinery, milliseconds that `od serve` never needs.
    get stdin() {
      return process.stdin as AsyncIterable<Uint8Array>;
    },
    env: process.env,
    cwd: process.cwd(),
    interrupted,
  };
}
