/**
 * A scripted harness implementing the profile's documented interface (server/dsh-runtime/HARNESS_INTERFACE.md).
 * Sessions live in memory, or as JSON files under `sessionsDir` so a later process can resume them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Harness, HarnessEvent, SessionOptions } from "../../../server/dsh-runtime/src/index.mjs";
import { DEFAULT_MODELS, DEFAULT_STEPS, type FakeDshScript, type FakeStep } from "./script.ts";

type SessionRecord = { id: string; cwd: string; prompts: string[] };

export function createFakeHarness(script: FakeDshScript, sessionsDir?: string): Harness & { calls: string[] } {
  const sessions = new Map<string, SessionRecord>();
  const listeners = new Map<string, Set<(event: HarnessEvent) => void>>();
  const cancellers = new Map<string, () => void>();
  const calls: string[] = [];

  const sessionFile = (id: string) => (sessionsDir ? join(sessionsDir, `${encodeURIComponent(id)}.json`) : undefined);
  const publish = (id: string, event: HarnessEvent) => {
    for (const listener of listeners.get(id) ?? []) listener(event);
  };

  return {
    calls,
    async createSession(options: SessionOptions) {
      calls.push(`createSession ${options.sessionId}`);
      if (script.failCreate) throw new Error(script.failCreate);
      sessions.set(options.sessionId, { id: options.sessionId, cwd: options.cwd, prompts: [] });
      return { sessionId: options.sessionId };
    },
    async resumeSession(options: SessionOptions) {
      calls.push(`resumeSession ${options.sessionId}`);
      const file = sessionFile(options.sessionId);
      const known = sessions.get(options.sessionId) ?? (file && existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SessionRecord) : undefined);
      if (!known || script.rejectResume) throw new Error(`unknown session ${options.sessionId}`);
      sessions.set(known.id, known);
      return { sessionId: known.id };
    },
    subscribe(sessionId, listener) {
      const set = listeners.get(sessionId) ?? new Set();
      set.add(listener);
      listeners.set(sessionId, set);
      return () => set.delete(listener);
    },
    async sendPrompt(sessionId, prompt) {
      calls.push(`sendPrompt ${sessionId}`);
      if (script.promptError) throw new Error(script.promptError);
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.prompts.push(prompt);
      const fill = (text: string) => text.replaceAll("{{prompt}}", prompt).replaceAll("{{turn}}", String(session.prompts.length));
      let cancelled = false;
      let wakeCancel: () => void = () => undefined;
      const cancelledSignal = new Promise<void>((resolve) => {
        wakeCancel = resolve;
      });
      cancellers.set(sessionId, () => {
        cancelled = true;
        wakeCancel();
      });
      try {
        for (const step of script.steps ?? DEFAULT_STEPS) {
          if (cancelled) break;
          await playStep(step, (event) => publish(sessionId, event), fill, cancelledSignal);
        }
        if (cancelled) publish(sessionId, { type: "turn/end", reason: "aborted" });
      } finally {
        cancellers.delete(sessionId);
      }
    },
    async cancel(sessionId) {
      calls.push(`cancel ${sessionId}`);
      cancellers.get(sessionId)?.();
    },
    async listModels() {
      if (script.modelsError) throw new Error(script.modelsError);
      return script.models ?? DEFAULT_MODELS;
    },
    async flush() {
      if (!sessionsDir) return;
      mkdirSync(sessionsDir, { recursive: true });
      for (const session of sessions.values()) writeFileSync(sessionFile(session.id) as string, JSON.stringify(session));
    },
  };
}

async function playStep(
  step: FakeStep,
  publish: (event: HarnessEvent) => void,
  fill: (text: string) => string,
  cancelled: Promise<void>,
): Promise<void> {
  if ("text" in step) publish({ type: "assistant/chunk", kind: "text-delta", delta: fill(step.text) });
  else if ("thinking" in step) publish({ type: "assistant/chunk", kind: "reasoning-delta", delta: fill(step.thinking) });
  else if ("tool_call" in step) publish({ type: "tool/call", callId: step.tool_call.id, name: step.tool_call.name, arguments: step.tool_call.arguments });
  else if ("tool_result" in step) {
    const r = step.tool_result;
    publish({ type: "tool/result", callId: r.id, name: r.name, output: r.output, isError: r.is_error });
  } else if ("end" in step) publish({ type: "turn/end", reason: step.end, message: step.message });
  else if ("message" in step) {
    publish({ type: "assistant/message", text: step.message.text === undefined ? undefined : fill(step.message.text), usage: step.message.usage });
  } else if ("wait_for_cancel" in step) await cancelled;
}
