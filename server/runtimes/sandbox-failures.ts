/**
 * The failure text of an agent's own sandbox that cannot start where the agent runs. In a container (or under an
 * AppArmor policy) that refuses unprivileged user namespaces, bubblewrap fails every command and write the agent
 * makes, and the CLI answers anyway and exits 0 (codex: each command's output is bwrap's error; real-clis §3–4).
 * The signatures are bubblewrap's own lines and the CLIs' warnings about it, plus macOS's sandbox-exec and Linux
 * Landlock refusing to apply. Pure.
 */

export type SandboxFailure = {
  /** A sentence for people: what failed, and why. */
  cause: string;
  /** What the user can do about it. */
  guidance: string;
  /** The line the recognition rests on (plain text, cut short). */
  evidence: string;
};

const SIGNATURES: readonly { pattern: RegExp; cause: string; guidance: string }[] = [
  {
    // bubblewrap's own errors, and codex's warnings that it will fail or is missing.
    pattern:
      /bwrap: (No permissions to creat(e|ing) (a )?new namespace|Creating new namespace failed|setting up uid map: Permission denied|loopback: Failed RTM_NEW(ADDR|LINK)|Can't mount proc|Failed to make \/ slave|[^\n]*Operation not permitted)|needs access to create user namespaces|bubblewrap is unavailable/i,
    cause: "the agent's sandbox (bubblewrap) could not start here: this machine or container does not allow unprivileged user namespaces",
    guidance: "Allow unprivileged user namespaces where the agent runs (or run the container with the capabilities bubblewrap needs), or run the agent without its own sandbox.",
  },
  {
    pattern: /sandbox-exec: [^\n]*(sandbox_apply|Operation not permitted)/i,
    cause: "the agent's sandbox (macOS sandbox-exec) could not be applied here",
    guidance: "Run the agent outside any other sandbox, or without its own sandbox.",
  },
  {
    pattern: /landlock[^\n]{0,60}\b(not supported|failed|error|unavailable)\b/i,
    cause: "the agent's sandbox (Landlock) could not be applied by this kernel",
    guidance: "Use a kernel with Landlock enabled where the agent runs, or run the agent without its own sandbox.",
  },
];

const MAX_EVIDENCE_CHARS = 240;

/** The sandbox failure `text` shows, or undefined. */
export function recognizeSandboxFailure(text: string): SandboxFailure | undefined {
  for (const { pattern, cause, guidance } of SIGNATURES) {
    const match = pattern.exec(text);
    if (!match) continue;
    return { cause, guidance, evidence: lineAround(text, match.index) };
  }
  return undefined;
}

/** The whole line holding `index`, without terminal escapes, cut short. */
function lineAround(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index) + 1;
  const end = text.indexOf("\n", index);
  const line = text
    .slice(start, end === -1 ? undefined : end)
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "")
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "")
    .trim();
  return line.length > MAX_EVIDENCE_CHARS ? `${line.slice(0, MAX_EVIDENCE_CHARS - 1)}…` : line;
}
