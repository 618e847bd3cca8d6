/** Settings: the agent inventory (streaming in), MCP servers when the daemon has them, and the theme. */
import { useEffect, useRef, useState } from "preact/hooks";
import type { SessionLinkResponse, SignOutEverywhereResponse } from "../../server/contracts/session.ts";
import { errorMessage, type Api } from "../api/client.ts";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { AgentCard, MissingAgentRow } from "../components/agent-card.tsx";
import { CopyCommand } from "../components/copy-button.tsx";
import type { AppModel } from "../state/app.ts";
import type { McpModel } from "../state/optional-features.ts";
import { McpForm } from "../components/mcp-form.tsx";
import { CloseIcon } from "../components/icons.tsx";

function McpEditor({ mcp }: { mcp: McpModel }) {
  const [text, setText] = useState(mcp.json.value);
  const [asJson, setAsJson] = useState(false);
  useEffect(() => setText(mcp.json.value), [mcp.json.value]);
  const config = mcp.config.value;
  if (!mcp.supported.value || !config) return null;
  const unsupported = config.agents.unsupported;
  return (
    <section data-testid="mcp-settings">
      <div class="row">
        <h3>MCP servers</h3>
        <span class="spacer" />
        <button type="button" class="link small" data-testid="mcp-as-json" aria-pressed={asJson} onClick={() => setAsJson(!asJson)}>
          {asJson ? "Edit as a form" : "Edit as JSON"}
        </button>
      </div>
      <p class="muted">
        Forwarded to every agent od can hand them to. Stored in <code>{config.path}</code>; a project's <code>.od/mcp-config.json</code> overrides
        entries by name.
      </p>
      {asJson ? (
        <>
          <textarea
            class="mono"
            rows={10}
            data-testid="mcp-json"
            aria-label="MCP servers (JSON)"
            value={text}
            onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <div class="row">
            <button type="button" class="small" data-testid="mcp-save-json" onClick={() => void mcp.save(text)}>
              Save
            </button>
            {mcp.saved.value && <span class="muted">Saved</span>}
            {mcp.error.value && <span class="error">{mcp.error.value}</span>}
          </div>
        </>
      ) : (
        <McpForm mcp={mcp} servers={config.servers} />
      )}
      {config.diagnostics.map((d, i) => (
        <p key={i} class="error" data-testid="mcp-diagnostic">
          {d}
        </p>
      ))}
      {unsupported.length > 0 && (
        <p class="muted" data-testid="mcp-unsupported">
          Configure MCP in the agent's own config for: {unsupported.map((a) => a.name).join(", ")}.
        </p>
      )}
    </section>
  );
}

/** The agents that are not installed: one collapsed group, each a line with its install command. */
function NotInstalled({ agents, expanded, onRescan }: { agents: AgentInfo[]; expanded: boolean; onRescan: () => void }) {
  const group = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (expanded) group.current?.scrollIntoView?.({ block: "start" });
  }, [expanded]);
  return (
    <details ref={group} class="agent-group not-installed" data-group="Not installed" data-testid="not-installed" open={expanded}>
      <summary>
        <h4>Not installed ({agents.length})</h4>
        <span class="muted">install one, then Rescan</span>
      </summary>
      {agents.map((agent) => (
        <MissingAgentRow key={agent.id} agent={agent} onRescan={onRescan} />
      ))}
    </details>
  );
}

/** A fresh one-time sign-in link for another browser (each link signs in one browser, once, within minutes). */
function SignInAnotherBrowser({ api }: { api: Api }) {
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = async () => {
    try {
      setLink((await api.post<SessionLinkResponse>("/api/session/links")).url);
      setError(null);
    } catch (linkError) {
      setError(errorMessage(linkError));
    }
  };
  return (
    <section data-testid="sign-in-link">
      <h3>Another browser</h3>
      <p class="muted">A link that signs one more browser in to this od, once, within ten minutes.</p>
      <div class="row">
        <button type="button" class="small" data-testid="new-sign-in-link" onClick={() => void create()}>
          New sign-in link
        </button>
        {link && <CopyCommand command={link} />}
        {error && <span class="error">{error}</span>}
      </div>
    </section>
  );
}

/** Ends every browser's session, this page's too (the API token scripts use keeps working). */
function SignOutEverywhere({ app }: { app: AppModel }) {
  const [error, setError] = useState<string | null>(null);
  const signOut = async () => {
    try {
      await app.api.del<SignOutEverywhereResponse>("/api/sessions");
      app.settingsOpen.value = false;
      await app.daemon.check(); // now signed out: the page says how to sign in again
    } catch (signOutError) {
      setError(errorMessage(signOutError));
    }
  };
  return (
    <section data-testid="sign-out-everywhere">
      <h3>Signed-in browsers</h3>
      <p class="muted">Browsers stay signed in across restarts of od until 30 days unused. This signs every one of them out, this one too.</p>
      <div class="row">
        <button type="button" class="small" data-testid="sign-out-everywhere-button" onClick={() => void signOut()}>
          Sign out everywhere
        </button>
        {error && <span class="error">{error}</span>}
      </div>
    </section>
  );
}

export function Settings({ app }: { app: AppModel }) {
  const { agents, config } = app;
  const groups = agents.groups.value;
  const close = () => {
    app.settingsOpen.value = false;
    app.settingsFocus.value = null;
  };
  const rescan = () => void agents.rescan();
  useEffect(() => {
    // Esc belongs to the setup dialog while it is open on top of Settings.
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && app.agentSetup.state.peek().kind === "closed" && close();
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  const sections: Array<[string, typeof groups.installed]> = [
    ["Installed", groups.installed],
    ["Setup required", groups.setupRequired],
  ];
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && close()}>
      <div class="settings" role="dialog" aria-modal="true" aria-label="Settings" data-testid="settings">
        <header class="settings-head">
          <h2>Settings</h2>
          <button type="button" class="icon" aria-label="Close settings" onClick={close}>
            <CloseIcon />
          </button>
        </header>
        <section>
          <h3>Theme</h3>
          <div class="row" role="radiogroup" data-testid="theme-picker">
            {(["light", "dark", "system"] as const).map((theme) => (
              <label key={theme}>
                <input type="radio" name="theme" checked={config.theme.value === theme} onChange={() => void config.update({ theme })} /> {theme}
              </label>
            ))}
          </div>
        </section>
        <section>
          <div class="row">
            <h3>Agents</h3>
            <span class="spacer" />
            {agents.load.value === "loading" && <span class="muted">detecting…</span>}
            <button type="button" class="small" data-testid="rescan" disabled={agents.rescanning.value} onClick={rescan}>
              {agents.rescanning.value ? rescanLabel(agents.rescanProgress.value) : "Rescan"}
            </button>
          </div>
          {agents.error.value && <p class="error">{agents.error.value}</p>}
          {sections.map(([title, list]) =>
            list.length ? (
              <div key={title} class="agent-group" data-group={title}>
                <h4>
                  {title} ({list.length})
                </h4>
                {list.map((agent) => (
                  <AgentCard key={agent.id} agent={agent} config={config} onRescan={rescan} onSetup={app.agentSetup.open} connectionTests={app.connectionTests} />
                ))}
              </div>
            ) : null,
          )}
          {groups.notInstalled.length > 0 && <NotInstalled agents={groups.notInstalled} expanded={app.settingsFocus.value === "not-installed"} onRescan={rescan} />}
        </section>
        <McpEditor mcp={app.mcp} />
        <SignInAnotherBrowser api={app.api} />
        <SignOutEverywhere app={app} />
        {config.error.value && <p class="error">{config.error.value}</p>}
      </div>
    </div>
  );
}

/** The Rescan button while it works: how many agents have been looked at again, of how many. */
function rescanLabel(progress: { settled: number; total: number } | null): string {
  return progress && progress.total > 0 ? `Rescanning… ${progress.settled} of ${progress.total}` : "Rescanning…";
}
