/** Kilo Code CLI over ACP (`kilo acp`); images as `file://` resource links, no custom model ids. */
import type { RuntimeAgentDef } from "../types.ts";
import { ACP_MODEL_DISCOVERY, lazyAgentDef, MULTI_PROVIDER_ENV, withDefaultModel } from "./shared.ts";

/** Kilo's permission keys for what changes something: edits (write, patch), shell commands, fetches, files outside the project. */
const KILO_ACTIONS = ["edit", "bash", "webfetch", "external_directory"];
const KILO_ASK = kiloPermissions("ask");
const KILO_READ_ONLY = kiloPermissions("deny");

/**
 * KILO_PERMISSION's JSON: one answer for every action. A loop, not `Object.fromEntries`: this module loads with every
 * `od run`, and the engine compiles such a builtin on its first call (~0.05–0.09 ms).
 */
function kiloPermissions(answer: "ask" | "deny"): string {
  const permissions: Record<string, string> = {};
  for (const action of KILO_ACTIONS) permissions[action] = answer;
  return JSON.stringify(permissions);
}

export const kiloAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "kilo",
  name: "Kilo Code CLI",
  bin: "kilo",
  fallbackBins: ["kilocode"],
  versionArgs: ["--version"],
  // The real binary boots its runtime even for --version: ~2 s idle, past the 3 s default on a busy machine.
  versionProbeTimeoutMs: 15_000,
  versionPolicy: {
    supportedVersions: ["7.4.23", "7.7.7"],
    // 7.4.23 and later within 7.x (tested floor).
    supportedVersionPattern: /^7\.(4\.(2[3-9]|[3-9]\d)|([5-9]|\d{2,})\.\d+)$/,
    requireVersion: true,
    parse: (raw) => /(\d+\.\d+\.\d+)/.exec(raw)?.[1] ?? null,
  },
  fallbackModels: withDefaultModel([]),
  supportsCustomModel: false,
  supportsImagePaths: true,
  streamFormat: "acp-json-rpc",
  // Without a permission config it writes and runs commands in the project without a session/request_permission; its
  // runtime overlay (KILO_PERMISSION, 7.x) makes it ask over ACP before it edits, runs or fetches, or refuse them.
  permissionEnv: (mode): Record<string, string> => (mode === "bypass" ? {} : { KILO_PERMISSION: mode === "ask" ? KILO_ASK : KILO_READ_ONLY }),
  inheritedEnv: [...MULTI_PROVIDER_ENV, "KILO_API_KEY", "KILOCODE_TOKEN"],
  acpModelDiscovery: ACP_MODEL_DISCOVERY,
  // `kilo acp` (7.7.7) advertises loadSession and replays the saved session on `session/load`.
  resumesSessionViaAcpLoad: true,
  externalMcpInjection: "acp-merge",
  acpImagePathFormat: "file-url",
  acpResourceMimePolicy: "kilo",
  installUrl: "https://kilocode.ai/cli",
  installCommand: "npm install -g @kilocode/cli",
  buildArgs: () => ["acp"],
}));
