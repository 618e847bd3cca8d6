/** Typed detection findings with the fix actions the UI offers (exact install/login commands where known). */
import type { AgentDiagnostic, AgentFixAction } from "../contracts/agents.ts";
import type { RuntimeAgentDef } from "./types.ts";

type DefFacts = Pick<RuntimeAgentDef, "id" | "name" | "bin" | "fallbackBins" | "installUrl" | "docsUrl" | "installCommand" | "loginCommand">;

function installActions(def: DefFacts): AgentFixAction[] {
  const actions: AgentFixAction[] = [];
  if (def.installCommand) actions.push({ kind: "copyCommand", command: def.installCommand });
  if (def.installUrl) actions.push({ kind: "openInstall" });
  if (def.docsUrl) actions.push({ kind: "openDocs" });
  actions.push({ kind: "rescan" });
  return actions;
}

/**
 * No executable anywhere we looked. Names every executable name tried, so the one the suggested install gives
 * (`opencode` from `npm install -g opencode-ai`, while od looks for `opencode-cli` first) is among them.
 */
export function notInstalledDiagnostic(def: DefFacts, searchedDirs: string[], envVar: string): AgentDiagnostic {
  const names = [def.bin, ...(def.fallbackBins ?? [])].map((name) => `\`${name}\``);
  const named = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names[0];
  const install = def.installCommand ? `Install it with \`${def.installCommand}\`` : def.installUrl ? `Install it (${def.installUrl})` : "Install it";
  return {
    reason: "not-installed",
    severity: "error",
    message: `${def.name} (${named}) was not found on PATH or in the usual toolchain folders.`,
    detail: `${install}, or set ${envVar} to the full path of the executable.`,
    searchedDirs,
    fixActions: installActions(def),
  };
}

/** The configured `<ID>_BIN` does not point at anything runnable. */
export function invalidOverrideDiagnostic(def: DefFacts, envVar: string, value: string): AgentDiagnostic {
  return {
    reason: "not-invocable",
    severity: "error",
    message: `${envVar} is set to ${value}, which is not an executable file.`,
    detail: `Fix or unset ${envVar}, then rescan.`,
    fixActions: [...(def.docsUrl ? [{ kind: "openDocs" } as const] : []), { kind: "rescan" }],
  };
}

/** The executable exists but the OS refused to run it (EACCES, ENOTDIR, 126/127, a broken shim). */
export function notInvocableDiagnostic(def: DefFacts, path: string, detail: string): AgentDiagnostic {
  return {
    reason: "not-invocable",
    severity: "error",
    message: `${def.name} was found at ${path} but could not be started.`,
    detail,
    fixActions: installActions(def),
  };
}

/** Version outside the tested policy (warning), or unreadable when the policy requires one (error). */
export function versionUntestedDiagnostic(def: DefFacts, version: string | null, tested: readonly string[]): AgentDiagnostic {
  return version
    ? {
        reason: "version-untested",
        severity: "warning",
        message: `${def.name} ${version} has not been tested with od (tested: ${tested.join(", ")}).`,
        fixActions: installActions(def),
      }
    : {
        reason: "version-untested",
        severity: "error",
        message: `${def.name} did not report a version od can check (tested: ${tested.join(", ")}).`,
        fixActions: installActions(def),
      };
}

/** The auth probe says nobody is signed in, or could not tell. */
export function authDiagnostic(def: DefFacts, status: "missing" | "unknown", message: string): AgentDiagnostic {
  const actions: AgentFixAction[] = [];
  if (def.loginCommand) actions.push({ kind: "copyCommand", command: def.loginCommand });
  if (def.docsUrl) actions.push({ kind: "openDocs" });
  actions.push({ kind: "rescan" });
  return { reason: "auth-missing", severity: status === "missing" ? "error" : "warning", message, fixActions: actions };
}

/** Present, but a one-time setup step (od's companion profile) is missing or stale. */
export function setupRequiredDiagnostic(def: DefFacts, detail: string): AgentDiagnostic {
  return {
    reason: "setup-required",
    severity: "warning",
    message: `${def.name} is installed but needs od's setup step before it can run.`,
    detail,
    fixActions: [{ kind: "setup" }, { kind: "rescan" }],
  };
}

/** A probe did not answer in time; detection carried on without it. */
export function probeTimeoutDiagnostic(def: DefFacts, probe: string, args: readonly string[], timeoutMs: number): AgentDiagnostic {
  return {
    reason: "probe-timeout",
    severity: "warning",
    message: `\`${def.bin} ${args.join(" ")}\` (${probe} probe) did not finish within ${timeoutMs} ms.`,
    fixActions: [{ kind: "rescan" }],
  };
}

/** The pass stopped waiting for this CLI's probes; they go on in the background and its real result follows. */
export function stillProbingDiagnostic(def: DefFacts, waitedMs: number, lastGoodAt?: number): AgentDiagnostic {
  const seconds = Math.round(waitedMs / 1000);
  const shown = lastGoodAt === undefined ? "" : ` Shown: its last complete result, from ${new Date(lastGoodAt).toISOString()}.`;
  return {
    reason: "probe-timeout",
    severity: "info",
    message: `${def.name} is still being probed after ${seconds} s; its result follows when its probes finish.${shown}`,
    fixActions: [{ kind: "rescan" }],
  };
}

/** A run waited for this CLI's probes as long as they may take, and they still had not finished. */
export function probesOutlastedDiagnostic(def: DefFacts): AgentDiagnostic {
  return {
    reason: "probe-timeout",
    severity: "error",
    message: `${def.name} did not finish answering its detection probes within their time limits.`,
    fixActions: [{ kind: "rescan" }],
  };
}

/** Detection on another machine: its shell found no such command on its PATH. */
export function notInstalledRemotelyDiagnostic(def: DefFacts, where: string): AgentDiagnostic {
  const install = def.installCommand ? `Install it there with \`${def.installCommand}\`` : def.installUrl ? `Install it there (${def.installUrl})` : "Install it there";
  return {
    reason: "not-installed",
    severity: "error",
    message: `${def.name} (\`${def.bin}\`) was not found on the PATH of ${where}.`,
    detail: `${install}, or set PATH for ${def.id} under agentCliEnv to the folder that holds it.`,
    fixActions: installActions(def),
  };
}

/** Detection on another machine or in a container could not reach it. */
export function remoteUnreachableDiagnostic(where: string, why: string): AgentDiagnostic {
  return {
    reason: "remote-unreachable",
    severity: "error",
    message: `Cannot reach ${where}: nothing was probed there.`,
    ...(why ? { detail: why } : {}),
    fixActions: [{ kind: "rescan" }],
  };
}

/**
 * The agent's own sandbox did not start where it runs (its probe failed the way a run there would): runs would fail
 * at their first command, so detection says it first, with the per-machine setting that runs the agent without it.
 */
export function sandboxUnavailableDiagnostic(def: DefFacts, where: string, failure: { cause: string; evidence: string }, optOut: string, machineKey: string): AgentDiagnostic {
  return {
    reason: "sandbox-unavailable",
    severity: "warning",
    message: `${def.name}'s own sandbox cannot start on ${where}: ${failure.cause}. Its runs there would fail.`,
    detail: `It said: ${failure.evidence}. Allow it there, or set ${optOut} for this machine (app-config \`machineEnv\` under "${machineKey}") to run ${def.name} there without its sandbox.`,
    fixActions: [{ kind: "rescan" }],
  };
}
