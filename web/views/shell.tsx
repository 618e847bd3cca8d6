/** The app shell: top bar, projects sidebar, conversation, files panel, and the settings and usage dialogs. */
import type { AppModel } from "../state/app.ts";
import { AgentSetupDialog } from "../components/agent-setup-dialog.tsx";
import { ConversationView } from "./conversation-view.tsx";
import { FilesPanel } from "./files-panel.tsx";
import { Settings } from "./settings.tsx";
import { Sidebar } from "./sidebar.tsx";
import { UsageView } from "./usage-view.tsx";

export function Shell({ app }: { app: AppModel }) {
  const state = app.daemon.state.value;
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
        <span class="spacer" />
        <button type="button" class="ghost" data-testid="open-usage" onClick={app.usage.show}>
          Usage
        </button>
        <button type="button" class="ghost" data-testid="open-settings" onClick={() => (app.settingsOpen.value = true)}>
          Settings
        </button>
      </header>
      {state.kind === "unauthorized" && (
        <div class="signed-out" role="alert" data-testid="signed-out">
          <strong>This page is not signed in to od.</strong> Open the address od printed when it started,{" "}
          <code>od listening on http://127.0.0.1:…/?token=…</code>, in this browser. Each such link signs one browser in,
          once; a signed-in page gives you a new one under Settings → Another browser.
          {state.reason && <p class="muted">{state.reason}</p>}
        </div>
      )}
      <Sidebar workspace={app.workspace} />
      <ConversationView app={app} />
      <FilesPanel files={app.files} />
      {app.settingsOpen.value && <Settings app={app} />}
      {app.usage.open.value && <UsageView usage={app.usage} />}
      <AgentSetupDialog setup={app.agentSetup} />
    </div>
  );
}
