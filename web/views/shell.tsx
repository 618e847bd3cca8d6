/**
 * The app shell: top bar, projects sidebar, conversation, files panel, and the settings and usage dialogs. On narrow
 * screens the sidebar and the files panel become drawers (styles.css decides when); the top bar's toggles open them.
 */
import { SIGN_IN_COMMAND } from "../../server/contracts/sign-in-command.ts";
import { useEffect } from "preact/hooks";
import type { AppModel, Drawer } from "../state/app.ts";
import { AgentSetupDialog } from "../components/agent-setup-dialog.tsx";
import { ConversationView } from "./conversation-view.tsx";
import { FilesPanel } from "./files-panel.tsx";
import { Settings } from "./settings.tsx";
import { Sidebar } from "./sidebar.tsx";
import { UsageView } from "./usage-view.tsx";
import type { JSX } from "preact";
import { MenuIcon } from "../components/icons.tsx";

/** `icon`: shown before the label, which narrow phones drop (an icon alone must be one everyone reads, like a menu's three lines). */
function DrawerToggle({ app, drawer, label, icon }: { app: AppModel; drawer: Exclude<Drawer, null>; label: string; icon?: JSX.Element }) {
  const open = app.drawer.value === drawer;
  return (
    <button
      type="button"
      class={`ghost drawer-toggle toggle-${drawer}`}
      data-testid={`toggle-${drawer}`}
      aria-expanded={open}
      aria-label={label}
      title={label}
      onClick={() => (app.drawer.value = open ? null : drawer)}
    >
      {icon ? (
        <>
          <span aria-hidden="true">{icon}</span>
          <span class="toggle-label">{label}</span>
        </>
      ) : (
        label
      )}
    </button>
  );
}

export function Shell({ app }: { app: AppModel }) {
  const state = app.daemon.state.value;
  const drawer = app.drawer.value;
  const closeDrawer = () => (app.drawer.value = null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && !app.settingsOpen.peek() && closeDrawer();
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  return (
    <div class={`shell${drawer ? ` drawer-${drawer}` : ""}`} data-state={state.kind}>
      <header class="topbar">
        <DrawerToggle app={app} drawer="projects" label="Projects" icon={<MenuIcon />} />
        <span class="brand">od</span>
        <span class="daemon-status" id="daemon-status">
          {state.kind === "ready" && `connected · v${state.version}`}
          {state.kind === "connecting" && "connecting…"}
          {state.kind === "unauthorized" && `not signed in — run ${SIGN_IN_COMMAND} in a terminal`}
          {state.kind === "offline" && `daemon unreachable: ${state.message}`}
        </span>
        <span class="spacer" />
        <DrawerToggle app={app} drawer="files" label="Files" />
        <button type="button" class="ghost" data-testid="open-usage" onClick={app.usage.show}>
          Usage
        </button>
        <button type="button" class="ghost" data-testid="open-settings" onClick={() => app.openSettings()}>
          Settings
        </button>
      </header>
      {state.kind === "unauthorized" && (
        <div class="signed-out" role="alert" data-testid="signed-out">
          <strong>This page is not signed in to od.</strong> In a terminal on this machine, run <code>{SIGN_IN_COMMAND}</code>: it
          opens a fresh sign-in link in your browser (<code>{SIGN_IN_COMMAND} --print</code> prints one to paste instead; add{" "}
          <code>--data-dir DIR</code> if od runs with one). Each link signs one browser in, once; signed in, a browser stays
          signed in across restarts of od.
          {state.reason && <p class="muted">{state.reason}</p>}
        </div>
      )}
      <Sidebar workspace={app.workspace} folderPicker={app.folderPicker} onNavigate={closeDrawer} />
      <ConversationView app={app} />
      <FilesPanel files={app.files} onClose={closeDrawer} />
      {drawer && <div class={`drawer-backdrop for-${drawer}`} data-testid="drawer-backdrop" onClick={closeDrawer} />}
      {app.settingsOpen.value && <Settings app={app} />}
      {app.usage.open.value && <UsageView usage={app.usage} />}
      <AgentSetupDialog setup={app.agentSetup} />
    </div>
  );
}
