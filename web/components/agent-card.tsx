/** One agent in Settings: what detection found, what is wrong and how to fix it, and its per-agent defaults. */
import { useState } from "preact/hooks";
import type { AgentFixAction, AgentInfo } from "../../server/contracts/agents.ts";
import { copyCommands } from "../state/agents.ts";
import type { ConfigModel } from "../state/config.ts";
import type { ConnectionTestsModel } from "../state/connection-tests.ts";
import { safeHref } from "../lib/markdown.ts";
import { CopyCommand } from "./copy-button.tsx";
import { shortVersion } from "../lib/agent-version.ts";

const STATE_LABEL: Record<AgentInfo["state"], string> = { available: "installed", "setup-required": "setup required", unavailable: "not installed", probing: "probing…" };

/** What a card can ask of the app. */
export interface AgentCardActions {
  onRescan: () => void;
  /** Open the setup dialog of an agent that needs od's setup step. */
  onSetup?: (agentId: string) => void;
  /** Run and show connection tests (installed agents). */
  connectionTests?: ConnectionTestsModel;
}

function ConnectionTest({ agent, config, tests }: { agent: AgentInfo; config: ConfigModel; tests: ConnectionTestsModel }) {
  const state = tests.byAgent.value[agent.id];
  const result = state?.kind === "done" ? state.result : undefined;
  return (
    <div class="row connection-test">
      <button
        type="button"
        class="small"
        data-testid="test-connection"
        aria-describedby={`test-connection-note-${agent.id}`}
        disabled={state?.kind === "running"}
        onClick={() => void tests.run(agent.id, config.choiceFor(agent.id))}
      >
        {state?.kind === "running" ? "Testing…" : "Test connection"}
      </button>
      <span class="muted small-note" id={`test-connection-note-${agent.id}`} data-testid="test-connection-note">
        makes one real model call with your account
      </span>
      {result && (
        <span class={result.ok ? "ok" : "error"} data-testid="card-connection-result" data-ok={String(result.ok)} data-kind={result.kind ?? ""}>
          {result.ok ? `works (${(result.latencyMs / 1000).toFixed(1)} s)` : `${result.kind ?? "failed"}: ${result.detail ?? ""}`}
        </span>
      )}
      {state?.kind === "error" && <span class="error">{state.message}</span>}
    </div>
  );
}

function FixAction({ agent, action, onRescan, onSetup }: { agent: AgentInfo; action: AgentFixAction } & AgentCardActions) {
  switch (action.kind) {
    case "copyCommand":
      return <CopyCommand command={action.command} />;
    case "rescan":
      return (
        <button type="button" class="small" onClick={onRescan}>
          Rescan
        </button>
      );
    case "openInstall":
    case "openDocs": {
      const href = safeHref((action.kind === "openInstall" ? agent.installUrl : agent.docsUrl) ?? "");
      return href ? (
        <a class="button small" href={href} target="_blank" rel="noopener noreferrer">
          {action.kind === "openInstall" ? "Install guide" : "Docs"}
        </a>
      ) : null;
    }
    case "setup":
      return onSetup ? (
        <button type="button" class="small primary" data-testid="setup-agent" onClick={() => onSetup(agent.id)}>
          Set up…
        </button>
      ) : (
        <CopyCommand command={`od setup ${agent.id}`} />
      );
  }
}

function EnvEditor({ agent, config }: { agent: AgentInfo; config: ConfigModel }) {
  const env = config.config.value.agentCliEnv?.[agent.id] ?? {};
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const save = (next: Record<string, string>) =>
    void config.update({ agentCliEnv: { [agent.id]: Object.keys(next).length ? next : null } });
  return (
    <div class="env-editor">
      <h4>Extra environment</h4>
      {Object.entries(env).map(([name]) => (
        <div class="row" key={name}>
          <code>{name}</code>
          <input type="password" value="••••••••" disabled aria-label={`${name} (hidden)`} />
          <button
            type="button"
            class="small"
            onClick={() => {
              const next = { ...env };
              delete next[name];
              save(next);
            }}
          >
            Remove
          </button>
        </div>
      ))}
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return;
          save({ ...env, [key]: value });
          setKey("");
          setValue("");
        }}
      >
        <input placeholder="NAME" value={key} onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)} />
        <input type="password" placeholder="value" autoComplete="off" value={value} onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)} />
        <button type="submit" class="small">
          Add
        </button>
      </form>
    </div>
  );
}

function Defaults({ agent, config }: { agent: AgentInfo; config: ConfigModel }) {
  const choice = config.choiceFor(agent.id);
  const set = (patch: { model?: string; reasoning?: string }) => {
    const next = { ...choice, ...patch };
    if (!next.model) delete next.model;
    if (!next.reasoning) delete next.reasoning;
    void config.update({ agentModels: { [agent.id]: Object.keys(next).length ? next : null } });
  };
  return (
    <div class="row defaults">
      <label>
        Default model{" "}
        <select value={choice.model ?? ""} onChange={(e) => set({ model: (e.currentTarget as HTMLSelectElement).value })}>
          <option value="">CLI default</option>
          {agent.models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      {(agent.reasoningOptions?.length ?? 0) > 0 && (
        <label>
          Reasoning{" "}
          <select value={choice.reasoning ?? ""} onChange={(e) => set({ reasoning: (e.currentTarget as HTMLSelectElement).value })}>
            <option value="">CLI default</option>
            {agent.reasoningOptions!.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

export function AgentCard({ agent, config, onRescan, onSetup, connectionTests }: { agent: AgentInfo; config: ConfigModel } & AgentCardActions) {
  const probes = Object.entries(agent.probeMs).filter(([, ms]) => typeof ms === "number");
  return (
    <article class={`agent-card state-${agent.state}`} data-testid="agent-card" data-agent-id={agent.id} data-state={agent.state}>
      <header>
        <strong>{agent.name}</strong> <span class={`badge ${agent.state}`}>{STATE_LABEL[agent.state]}</span>
        {agent.version && <span class="muted" title={agent.version}> {shortVersion(agent.version)}</span>}
      </header>
      <dl>
        {agent.path && (
          <>
            <dt>Path</dt>
            <dd>
              <code>{agent.path}</code>
            </dd>
          </>
        )}
        {agent.authStatus && (
          <>
            <dt>Sign-in</dt>
            <dd data-auth={agent.authStatus}>
              {agent.authStatus === "ok" ? "signed in" : agent.authStatus === "missing" ? "not signed in" : "unknown"}
              {agent.authMessage ? ` — ${agent.authMessage}` : ""}
            </dd>
          </>
        )}
        {agent.available && (
          <>
            <dt>Models</dt>
            <dd>
              {agent.models.length} ({agent.modelsSource === "live" ? "from the CLI" : "built-in list"})
            </dd>
          </>
        )}
        {agent.available && !agent.externalMcpInjection && (
          <>
            <dt>MCP</dt>
            <dd class="muted">configure MCP servers in the agent's own config</dd>
          </>
        )}
        {probes.length > 0 && (
          <>
            <dt>Probes</dt>
            <dd class="muted">{probes.map(([name, ms]) => `${name} ${ms}ms`).join(" · ")}</dd>
          </>
        )}
      </dl>
      {agent.diagnostics.map((d, i) => (
        <div key={i} class={`diagnostic severity-${d.severity}`} data-testid="diagnostic" data-reason={d.reason}>
          <p>{d.message}</p>
          {d.detail && <p class="muted">{d.detail}</p>}
          <div class="fix-actions">
            {d.fixActions.map((action, j) => (
              <FixAction key={j} agent={agent} action={action} onRescan={onRescan} onSetup={onSetup} />
            ))}
          </div>
        </div>
      ))}
      {agent.available && connectionTests && <ConnectionTest agent={agent} config={config} tests={connectionTests} />}
      {agent.available && (
        <details>
          <summary>Defaults and environment</summary>
          <Defaults agent={agent} config={config} />
          <EnvEditor agent={agent} config={config} />
        </details>
      )}
    </article>
  );
}

/**
 * An agent that is not installed, as one line: its name, its install command with a Copy button (or its install
 * guide), and what detection found behind a disclosure.
 */
export function MissingAgentRow({ agent, onRescan }: { agent: AgentInfo; onRescan: () => void }) {
  const command = copyCommands(agent)[0];
  const guide = safeHref(agent.installUrl ?? "");
  const docs = safeHref(agent.docsUrl ?? "");
  return (
    <article class="agent-card missing-agent" data-testid="agent-card" data-agent-id={agent.id} data-state={agent.state}>
      <div class="missing-head">
        <strong>{agent.name}</strong>
        {command ? (
          <CopyCommand command={command} />
        ) : guide ? (
          <a class="button small" href={guide} target="_blank" rel="noopener noreferrer">
            Install guide
          </a>
        ) : docs ? (
          <a class="button small" href={docs} target="_blank" rel="noopener noreferrer">
            Docs
          </a>
        ) : null}
      </div>
      {agent.diagnostics.length > 0 && (
        <details class="missing-details">
          <summary>Details</summary>
          {agent.diagnostics.map((d, i) => (
            <div key={i} class={`diagnostic severity-${d.severity}`} data-testid="diagnostic" data-reason={d.reason}>
              <p>{d.message}</p>
              {d.detail && <p class="muted">{d.detail}</p>}
              <div class="fix-actions">
                {d.fixActions
                  .filter((action) => !(action.kind === "copyCommand" && action.command === command))
                  .map((action, j) => (
                    <FixAction key={j} agent={agent} action={action} onRescan={onRescan} />
                  ))}
              </div>
            </div>
          ))}
        </details>
      )}
    </article>
  );
}
