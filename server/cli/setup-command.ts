/**
 * `od setup deepseek-harness [--json] [--print-manifest]`: installs od's embedded `open-design` profile through the
 * user's dsh (same flow as the UI's confirm dialog), or prints the embedded manifest.
 */
import { folderDshRuntimeSource, type DshRuntimeSource } from "../dsh/embedded-runtime.ts";
import { resolveDshHome, setupDshProfile, DSH_AGENT_ID } from "../dsh/setup.ts";
import type { CommandSpec } from "./command.ts";

export type SetupCommandDeps = {
  /** Where the tarball comes from (the binary passes its embedded source; dev reads dist/dsh). */
  source?: () => DshRuntimeSource;
};

export function createSetupCommand(deps: SetupCommandDeps = {}): CommandSpec {
  const source = deps.source ?? (() => folderDshRuntimeSource());
  return {
    name: "setup",
    summary: "Install an agent's od companion (deepseek-harness: the open-design DSH profile)",
    details: "Uses $DSH_BIN (default: dsh on PATH) and $DSH_HOME (default ~/.dsh). Exit code 0 when the profile is ready.",
    flags: [
      { name: "json", type: "boolean", description: "Print the result as JSON" },
      { name: "print-manifest", type: "boolean", description: "Print the embedded profile manifest and exit" },
    ],
    positionals: [{ name: "agent", description: `Agent id (${DSH_AGENT_ID})` }],
    async run(args, io) {
      const agent = args.positionals[0];
      if (agent !== DSH_AGENT_ID) {
        io.stderr(`od setup: unknown agent ${JSON.stringify(agent ?? "")}; supported: ${DSH_AGENT_ID}\n`);
        return 2;
      }
      if (args.flags["print-manifest"] === true) {
        try {
          io.stdout(`${JSON.stringify(await source().manifest(), null, 2)}\n`);
          return 0;
        } catch (error) {
          io.stderr(`od setup: embedded manifest unreadable: ${String(error)}\n`);
          return 1;
        }
      }
      const result = await setupDshProfile({ dshBin: io.env.DSH_BIN || "dsh", dshHome: resolveDshHome(io.env), source: source(), env: io.env });
      if (args.flags.json === true) io.stdout(`${JSON.stringify(result)}\n`);
      else if (result.ok) io.stdout(`deepseek-harness: open-design profile ${result.packageVersion} ${result.action}\n`);
      else io.stderr(`deepseek-harness: ${result.code}: ${result.message}\n`);
      return result.ok ? 0 : 1;
    },
  };
}

export const setupCommand: CommandSpec = createSetupCommand();
