/**
 * `dsh --profile open-design --probe` → is the installed profile one this od can drive? Strict: the handshake must
 * name the open-design runtime, protocol generation 1, the three capabilities, and (when given) the exact
 * package version od embeds.
 */
import { HandshakeFrame } from "./frames.ts";

export type DshProbeParse =
  | { compatible: true; pluginVersion: string; compatibilityGeneration?: string }
  | { compatible: false; reason: string; pluginVersion?: string };

export function parseDshProbe(stdout: string, expectedPluginVersion?: string): DshProbeParse {
  for (const line of stdout.split("\n")) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = HandshakeFrame.safeParse(value);
    if (!parsed.success || parsed.data.type !== "probe") continue;
    const frame = parsed.data;
    const caps = frame.capabilities;
    if (frame.runtime !== "open-design") return { compatible: false, reason: `profile runtime is ${frame.runtime}` };
    if (frame.protocol_version !== 1) return { compatible: false, reason: `profile speaks protocol ${frame.protocol_version}, od needs 1`, pluginVersion: frame.plugin_version };
    if (!caps.session_resume || !caps.session_cancel || !caps.structured_events) {
      return { compatible: false, reason: "profile lacks a required capability", pluginVersion: frame.plugin_version };
    }
    if (expectedPluginVersion !== undefined && frame.plugin_version !== expectedPluginVersion) {
      return { compatible: false, reason: `profile ${frame.plugin_version} installed, od ships ${expectedPluginVersion}`, pluginVersion: frame.plugin_version };
    }
    return frame.compatibility_generation === undefined
      ? { compatible: true, pluginVersion: frame.plugin_version }
      : { compatible: true, pluginVersion: frame.plugin_version, compatibilityGeneration: frame.compatibility_generation };
  }
  return { compatible: false, reason: "no probe frame in the profile's output" };
}
