/** Trae CLI over ACP (`traecli acp serve --yolo`). */
import type { RuntimeAgentDef } from "../types.ts";
import { ACP_MODEL_DISCOVERY, bypassesPermissions, lazyAgentDef, withDefaultModel } from "./shared.ts";

export const traeCliAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "trae-cli",
  name: "Trae CLI",
  bin: "traecli",
  versionArgs: ["--version"],
  versionProbeTimeoutMs: 10_000,
  fallbackModels: withDefaultModel([]),
  streamFormat: "acp-json-rpc",
  inheritedEnv: ["TRAE_API_KEY"],
  acpModelDiscovery: ACP_MODEL_DISCOVERY,
  externalMcpInjection: "acp-merge",
  resumesSessionViaAcpLoad: true,
  docsUrl: "https://www.volcengine.com/docs/86677/2227861?lang=zh",
  buildArgs: (_prompt, _images, _extraDirs, options = {}) =>
    !bypassesPermissions(options) ? ["acp", "serve"] : ["acp", "serve", "--yolo"],
}));
