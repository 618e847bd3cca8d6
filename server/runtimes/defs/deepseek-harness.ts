/**
 * DeepSeek Harness (`dsh`) through od's `open-design` profile: JSONL frames on stdio, profile-stdio resume,
 * and a compatibility handshake that turns a missing/incompatible profile into "setup required".
 */
import { join } from "node:path";
import { DSH_VERSION_POLICY } from "../../dsh/version-policy.ts";
import type { EnvMap, RuntimeAgentDef } from "../types.ts";
import { parseDshModels } from "../models.ts";
import { asRecord, lazyAgentDef, THIRTY_MINUTES_MS, tryParseJson, withDefaultModel } from "./shared.ts";

/** Protocol generation od speaks with the profile. */
export const DSH_PROTOCOL_VERSION = 1;
export const DSH_PROFILE = "open-design";

/** `<DSH_HOME|~/.dsh>/profiles/open-design`. */
export function dshProfileDir(env: EnvMap): string {
  const home = env.DSH_HOME || join(env.HOME || env.USERPROFILE || "", ".dsh");
  return join(home, "profiles", DSH_PROFILE);
}

/** The `probe`/`ready` frame's compatibility generation; throws when the profile is not one we speak. */
export function parseDshProbe(stdout: string): string {
  for (const line of stdout.split(/\r?\n/)) {
    const frame = asRecord(tryParseJson(line.trim()));
    if (!frame || (frame.type !== "probe" && frame.type !== "ready")) continue;
    if (frame.runtime !== DSH_PROFILE || frame.protocol_version !== DSH_PROTOCOL_VERSION) {
      throw new Error(`incompatible profile (runtime ${String(frame.runtime)}, protocol ${String(frame.protocol_version)})`);
    }
    const generation = frame.compatibility_generation;
    if (typeof generation === "string" && /^[A-Za-z0-9._:-]{1,128}$/.test(generation)) return generation;
    return String(frame.plugin_version ?? DSH_PROTOCOL_VERSION);
  }
  throw new Error("no probe frame");
}

/** `dsh 0.1.2-rc.1`, `v0.1.2-rc.1` or a bare version on the first line → the version; anything else → null. */
export function parseDshVersion(raw: string): string | null {
  return /^(?:dsh\s+)?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?(?:\+[0-9A-Za-z.]+)?)$/i.exec(raw.trim())?.[1] ?? null;
}

const BOOTSTRAP_SH = `https://open-design.ai/install-dsh.sh?version=${DSH_VERSION_POLICY.bootstrapVersion}`;

export const deepseekHarnessAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "deepseek-harness",
  name: "DeepSeek Harness",
  bin: "dsh",
  binEnvVar: "DSH_BIN",
  versionArgs: ["--version"],
  versionPolicy: {
    supportedVersions: DSH_VERSION_POLICY.supportedDshVersions,
    supportedVersionPattern: /^0\.1\.(\d+|0-rc\.([6-9]|\d{2,})|1-rc\.\d+|2-rc\.\d+)$/,
    requireVersion: true,
    parse: parseDshVersion,
  },
  compatibilityProbe: {
    args: ["--profile", DSH_PROFILE, "--probe"],
    timeoutMs: 10_000,
    // Probing a missing profile would make dsh create it; check the package file first.
    preflight: ({ env, fileExists }) => fileExists(join(dshProfileDir(env), "package.json")),
    parse: parseDshProbe,
  },
  fallbackModels: withDefaultModel([]),
  supportsCustomModel: false,
  streamFormat: "dsh-profile-jsonl",
  resumesSessionViaProfileStdio: true,
  capturesSessionIdFromStream: true,
  inactivityTimeoutMs: THIRTY_MINUTES_MS,
  listModels: { args: ["--profile", DSH_PROFILE, "--models"], timeoutMs: 10_000, parse: parseDshModels },
  inheritedEnv: ["DSH_HOME", "DEEPSEEK_API_KEY"],
  installUrl: BOOTSTRAP_SH,
  installCommand: `curl -fsSL '${BOOTSTRAP_SH}' | sh`,
  buildArgs: () => ["--profile", DSH_PROFILE, "--stdio"],
}));
