/** The app shell: projects sidebar, conversation, files panel. */
import type { DaemonModel } from "../state/daemon.ts";

export function Shell({ daemon }: { daemon: DaemonModel }) {
  const state = daemon.state.value;
  return (
    <div class="shell" data-state={state.kind}>
      <header class="topbar">
        <span class="brand">od</span>
        <span class="daemon-status" id="daemon-status">
          {state.kind === "ready" && `connected · v${state.version}`}
          {state.kind === "connecting" && "connecting…"}
          {state.kind === "unauthorized" && "not signed in — open the link od printed in your terminal"}
          {state.kind === "offline" && `daemon unreachable: ${state.message}`}
        </span>
      </header>
      <aside class="sidebar" aria-label="Projects">
        <h2>Projects</h2>
        <p class="empty">No projects yet.</p>
      </aside>
      <main class="conversation" aria-label="Conversation">
        <div class="empty-state">
          <h1>One calm place for your coding agents</h1>
          <p>od drives the agent CLIs you already have — Claude Code, Codex, OpenCode, Copilot, Pi and more.</p>
        </div>
      </main>
      <aside class="files" aria-label="Files">
        <h2>Files</h2>
        <p class="empty">Files your agents write appear here.</p>
      </aside>
    </div>
  );
}
