/**
 * Wire shape of `POST /api/agents/deepseek-harness/setup` (and of `od setup deepseek-harness --json` on success).
 * Failures use the common `{error:{code,message}}` body with one of DSH_SETUP_ERROR_STATUS's codes.
 */
import { z } from "../contracts/zod.ts";

/** What setup did: nothing was needed, a fresh install, or an existing (outdated/broken) profile replaced. */
export const DshSetupAction = z.enum(["already-compatible", "installed", "repaired"]);
export type DshSetupAction = z.infer<typeof DshSetupAction>;

/** 200 body: the profile is installed and compatible, and the agent list has been rescanned. */
export const DshSetupResponse = z.object({
  ok: z.literal(true),
  action: DshSetupAction,
  /** The agent id, `deepseek-harness`. */
  agent: z.literal("deepseek-harness"),
  /** Version of the embedded `@open-design/dsh-runtime` package now installed. */
  packageVersion: z.string(),
});
export type DshSetupResponse = z.infer<typeof DshSetupResponse>;

/** Failure code → HTTP status. */
export const DSH_SETUP_ERROR_STATUS = {
  /** No `dsh` executable (DSH_BIN, PATH, toolchain dirs): install it with the bootstrap command first. */
  AGENT_NOT_INSTALLED: 409,
  /** od's embedded tarball does not match its manifest (a broken build); nothing was touched. */
  BUNDLED_COMPANION_INVALID: 500,
  /** `dsh plugin add` failed or timed out; the previous profile was restored. */
  COMPANION_INSTALL_FAILED: 502,
  /** Installed, but the profile's handshake still does not match; the previous profile was restored. */
  COMPANION_STILL_INCOMPATIBLE: 502,
} as const;
export type DshSetupErrorCode = keyof typeof DSH_SETUP_ERROR_STATUS;
