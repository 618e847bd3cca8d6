/**
 * The behaviour a test chooses for the fake dsh, passed as JSON in `FAKE_DSH_SCRIPT`.
 * Text in steps may use `{{prompt}}` (this turn's prompt) and `{{turn}}` (1-based turn number of the session,
 * which survives resume, so a test can see that history was kept).
 */
import type { HarnessModel } from "../../../server/dsh-runtime/src/index.mjs";

export type FakeStep =
  | { text: string }
  | { thinking: string }
  | { tool_call: { id: string; name: string; arguments: unknown } }
  | { tool_result: { id: string; name: string; output: string; is_error?: boolean } }
  | { message: { text?: string; usage?: { provider: string; model: string; inputTokens: number; outputTokens: number } } }
  /** Publish nothing until cancel() is called, then end the turn as aborted. */
  | { wait_for_cancel: true }
  | { end: "completed" | "max-tokens" | "aborted" | "failed" | "blocked"; message?: string };

export type FakeDshScript = {
  /** `dsh --version` output (default 0.1.2-rc.1). */
  version?: string;
  models?: HarnessModel[];
  modelsError?: string;
  /** createSession rejects with this message. */
  failCreate?: string;
  /** resumeSession rejects even for a known session. */
  rejectResume?: boolean;
  /** sendPrompt rejects with this message. */
  promptError?: string;
  /** `plugin add` fails with this message. */
  failInstall?: string;
  /** Steps of every turn (default: thinking, echo text, usage, completed). */
  steps?: FakeStep[];
};

export const DEFAULT_STEPS: FakeStep[] = [
  { thinking: "considering {{prompt}}" },
  { text: "turn {{turn}}: " },
  { text: "echo {{prompt}}" },
  { message: { usage: { provider: "deepseek", model: "deepseek-v4-flash", inputTokens: 12, outputTokens: 5 } } },
  { end: "completed" },
];

export const DEFAULT_MODELS: HarnessModel[] = [
  { provider: "deepseek", provider_name: "DeepSeek", id: "deepseek-v4-pro", name: "DeepSeek V4 Pro", reasoning_options: ["low", "medium", "high"] },
  { provider: "deepseek", provider_name: "DeepSeek", id: "deepseek-v4-flash", name: "DeepSeek V4 Flash" },
];

/** Reads FAKE_DSH_SCRIPT; a bad value is a test bug, so it throws. */
export function readScript(env: Record<string, string | undefined>): FakeDshScript {
  const raw = env.FAKE_DSH_SCRIPT;
  return raw ? (JSON.parse(raw) as FakeDshScript) : {};
}
