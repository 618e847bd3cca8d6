/**
 * `od setup deepseek-harness [--json] [--print-manifest] [--verify-embedded]`: installs od's embedded `open-design`
 * profile through the user's dsh (the same code as the UI's confirm dialog, `POST /api/agents/deepseek-harness/setup`),
 * or prints / checks the embedded manifest.
 */
import { DSH_AGENT_ID } from "../dsh/agent-id.ts";
import { devDshRuntimeSource } from "../dsh/dev-source.ts";
import type { DshRuntimeSource } from "../dsh/embedded-runtime.ts";
import type { CommandIO, CommandSpec } from "./command.ts";

export type SetupCommandDeps = {
  /** Where the tarball comes from (the binary passes its embedded source; source runs pack dist/dsh). */
  source?: () => DshRuntimeSource;
};


/** What DeepSeek Harness is and why it needs setup: the first lines of this command's help, word for word in the README. */
export const DSH_SETUP_EXPLAINED =
  "DeepSeek Harness (dsh) is an agent CLI for DeepSeek models that runs whatever profile it is given; od drives it " +
  "through open-design, a small profile of its own (embedded in od) that speaks od's run protocol, and this setup " +
  "installs that profile into your dsh (needed once, and again only when od reports it outdated).";

export function createSetupCommand(deps: SetupCommandDeps = {}): CommandSpec {
  const source = deps.source ?? devDshRuntimeSource;
  return {
    name: "setup",
    summary: "Install an agent's od companion (deepseek-harness: the open-design DSH profile)",
    details: `${DSH_SETUP_EXPLAINED}\nUses $DSH_BIN (default: dsh on PATH) and $DSH_HOME (default ~/.dsh). Exit code 0 when the profile is ready.`,
    flags: [
      { name: "json", type: "boolean", description: "Print the result as JSON" },
      { name: "print-manifest", type: "boolean", description: "Print the embedded profile manifest and exit" },
      { name: "verify-embedded", type: "boolean", description: "Check the embedded tarball against its manifest (SHA-256) and exit" },
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
      if (args.flags["verify-embedded"] === true) return verifyEmbedded(source(), io);
      const { setupDeepseekHarness } = await import("../dsh/setup-agent.ts");
      const result = await setupDeepseekHarness({ env: io.env, source: source() });
      if (args.flags.json === true) io.stdout(`${JSON.stringify(result)}\n`);
      else if (result.ok) io.stdout(`deepseek-harness: open-design profile ${result.packageVersion} ${result.action}\n`);
      else io.stderr(`deepseek-harness: ${result.code}: ${result.message}\n`);
      return result.ok ? 0 : 1;
    },
  };
}

/** Prints `{ok, sha256, bytes, file, version}` (or `{ok:false, code, message}`); exit 0 only when the bytes match. */
async function verifyEmbedded(source: DshRuntimeSource, io: CommandIO): Promise<number> {
  try {
    const { verifyManifestAndTarball } = await import("../dsh/manifest.ts");
    const bytes = await source.readTarball();
    const verified = verifyManifestAndTarball(await source.manifest(), bytes);
    if (!verified.ok) {
      io.stdout(`${JSON.stringify({ ok: false, code: verified.code, message: verified.message })}\n`);
      return 1;
    }
    const { sha256, file, version } = verified.manifest;
    io.stdout(`${JSON.stringify({ ok: true, sha256, bytes: bytes.byteLength, file, version })}\n`);
    return 0;
  } catch (error) {
    io.stdout(`${JSON.stringify({ ok: false, code: "BUNDLED_COMPANION_INVALID", message: `embedded profile unreadable: ${String(error)}` })}\n`);
    return 1;
  }
}
