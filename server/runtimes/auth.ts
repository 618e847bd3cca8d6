/**
 * Auth status of a CLI: a key already in the environment short-circuits to `ok`; otherwise the def's cheap status
 * command is run and its combined output classified (tailored classifiers first, then a generic one).
 */
import type { EnvMap, RuntimeAgentDef } from "./types.ts";
import type { ProbeResult } from "./probe.ts";

/** Outcome of an auth check. */
export type AuthResult = {
  status: "ok" | "missing" | "unknown";
  message?: string;
  stdoutTail?: string;
  stderrTail?: string;
  exitCode?: number | null;
};

const TAIL = 400;
const tail = (text: string) => (text.length > TAIL ? text.slice(-TAIL) : text);

/** Env vars whose presence means the CLI is authenticated without a login, per classifier id. */
const ENV_SHORT_CIRCUITS: Record<string, (env: EnvMap) => boolean> = {
  codex: (env) => Boolean(env.CODEX_API_KEY || env.OPENAI_API_KEY),
  claude: (env) =>
    Boolean(env.ANTHROPIC_API_KEY || env.ANTHROPIC_AUTH_TOKEN || env.CLAUDE_CODE_USE_BEDROCK === "1" || env.CLAUDE_CODE_USE_VERTEX === "1"),
  "cursor-agent": (env) => Boolean(env.CURSOR_API_KEY),
};

/** Whose classifier applies: local profiles keep their base agent's. */
export function authClassifierId(def: Pick<RuntimeAgentDef, "id" | "authProbe">): string {
  return def.authProbe?.classifierAgentId ?? def.id;
}

/** True when the environment already carries credentials for this CLI. */
export function authFromEnv(classifierId: string, env: EnvMap): boolean {
  return ENV_SHORT_CIRCUITS[classifierId]?.(env) ?? false;
}

const NOT_LOGGED_IN = /not logged in|not authenticated|unauthenticated|login required|please (log|sign) ?in|no credentials|not signed in|\/login\b/i;
const GENERIC_AUTH_FAILURE =
  /unauthori[sz]ed|invalid api key|api key (is )?(missing|not set|invalid)|token (has )?expired|session expired|(http|status|error code|response code|code:?)\s*401/i;

type Classified = "ok" | "missing" | undefined;

function classifyClaude(stdout: string): Classified {
  const start = stdout.indexOf("{");
  if (start !== -1) {
    try {
      const parsed = JSON.parse(stdout.slice(start)) as Record<string, unknown>;
      const flag = parsed.loggedIn ?? parsed.authenticated;
      if (flag === false) return "missing";
      if (flag === true) return "ok";
    } catch {
      // Not JSON: fall through to text.
    }
  }
  return undefined;
}

const TAILORED: Record<string, (stdout: string, text: string) => Classified> = {
  claude: (stdout) => classifyClaude(stdout),
  codex: (_stdout, text) => (/not logged in/i.test(text) ? "missing" : /logged in using|logged in with|logged in as/i.test(text) ? "ok" : undefined),
  "cursor-agent": (_stdout, text) => (NOT_LOGGED_IN.test(text) ? "missing" : /logged in as|✓ logged in/i.test(text) ? "ok" : undefined),
};

function missingMessage(def: Pick<RuntimeAgentDef, "name" | "loginCommand">, classifierId: string): string {
  const login = def.loginCommand ? ` Run \`${def.loginCommand}\` in a terminal, then rescan.` : " Sign in with the CLI itself, then rescan.";
  const gui = classifierId === "claude" ? " (An API key exported only in your shell rc is not visible when od is started from a GUI.)" : "";
  return `${def.name} is not signed in.${login}${gui}`;
}

/** Classify a finished auth probe. Pure. */
export function classifyAuthProbe(def: Pick<RuntimeAgentDef, "id" | "name" | "authProbe" | "loginCommand">, result: ProbeResult): AuthResult {
  const classifierId = authClassifierId(def);
  const command = `${def.id} ${(def.authProbe?.args ?? []).join(" ")}`.trim();
  const unknown: AuthResult = { status: "unknown", message: `${def.name} authentication status could not be verified with \`${command}\`.` };
  if (result.kind === "spawn-error") return unknown;
  const text = `${result.stdout}\n${result.stderr}`;
  const exitCode = result.kind === "exited" ? result.code : null;
  const evidence = { stdoutTail: tail(result.stdout), stderrTail: tail(result.stderr), exitCode };
  const verdict =
    TAILORED[classifierId]?.(result.stdout, text) ??
    (NOT_LOGGED_IN.test(text) || GENERIC_AUTH_FAILURE.test(text) ? "missing" : undefined) ??
    (result.kind === "exited" && result.code === 0 ? "ok" : undefined);
  if (verdict === "ok") return { status: "ok" };
  if (verdict === "missing") return { status: "missing", message: missingMessage(def, classifierId), ...evidence };
  return { ...unknown, ...evidence };
}
