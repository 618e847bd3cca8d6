/** The setup dialog (web/state/agent-setup.ts): confirm what will be installed, then progress, then the result. */
import { useEffect } from "preact/hooks";
import { SETUP_EXPLANATION, type AgentSetupModel, type SetupStage } from "../state/agent-setup.ts";

const STAGES: Array<[SetupStage, string]> = [
  ["installing", "Installing the profile"],
  ["rescanning", "Detecting agents again"],
  ["selecting", "Selecting it"],
  ["testing", "Testing the connection"],
];

function Progress({ stage, failed }: { stage: SetupStage; failed?: boolean }) {
  const at = STAGES.findIndex(([s]) => s === stage);
  return (
    <ol class="setup-stages" data-testid="setup-progress" data-stage={stage}>
      {STAGES.map(([s, label], i) => (
        <li key={s} class={i < at ? "done" : i === at ? (failed ? "failed" : "current") : "todo"}>
          {label}
          {i === at && !failed ? "…" : ""}
        </li>
      ))}
    </ol>
  );
}

export function AgentSetupDialog({ setup }: { setup: AgentSetupModel }) {
  const state = setup.state.value;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setup.close();
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  if (state.kind === "closed") return null;
  const explanation = SETUP_EXPLANATION[state.agentId];
  const closable = state.kind !== "working";
  return (
    <div class="overlay setup-overlay" onClick={(e) => closable && e.target === e.currentTarget && setup.close()}>
      <div class="settings setup-dialog" role="dialog" aria-modal="true" aria-label={`Set up ${state.agentName}`} data-testid="agent-setup-dialog" data-kind={state.kind}>
        <header class="settings-head">
          <h2>Set up {state.agentName}</h2>
        </header>
        {state.kind === "confirm" && (
          <>
            <p>
              {state.agentName} is installed, but od needs its one-time setup step before it can run it.
            </p>
            {explanation ? (
              <dl class="setup-what">
                <dt>What will be installed</dt>
                <dd>{explanation.installs}</dd>
                <dt>Where</dt>
                <dd>{explanation.where}</dd>
              </dl>
            ) : (
              <p>od will run this agent's setup step.</p>
            )}
            <p class="muted">Nothing is changed until you confirm. Afterwards od detects agents again, selects {state.agentName} and tests it once.</p>
          </>
        )}
        {state.kind === "working" && (
          <>
            <Progress stage={state.stage} />
            {state.stage === "installing" && <p class="muted">This can take a minute or two.</p>}
          </>
        )}
        {state.kind === "error" && (
          <>
            <Progress stage={state.stage} failed />
            <p class="error" data-testid="setup-error" data-code={state.code}>
              {state.message}
            </p>
          </>
        )}
        {state.kind === "done" && (
          <>
            <p data-testid="setup-result" data-action={state.setup.action}>
              {state.setup.action === "already-compatible" ? "The profile was already installed" : state.setup.action === "repaired" ? "The profile was repaired" : "The profile was installed"}{" "}
              (version {state.setup.packageVersion}). {state.agentName} is now selected.
            </p>
            <p
              class={state.test.ok ? "ok" : "error"}
              data-testid="connection-result"
              data-ok={String(state.test.ok)}
              data-kind={state.test.kind ?? ""}
            >
              {state.test.ok
                ? `Connection test passed in ${(state.test.latencyMs / 1000).toFixed(1)} s${state.test.detail ? ` — it answered “${state.test.detail}”` : ""}.`
                : `Connection test failed (${state.test.kind ?? "unknown"}): ${state.test.detail ?? "no detail"}`}
            </p>
          </>
        )}
        <div class="row setup-actions">
          <span class="spacer" />
          {state.kind === "confirm" && (
            <>
              <button type="button" data-testid="setup-cancel" onClick={setup.close}>
                Cancel
              </button>
              <button type="button" class="primary" data-testid="setup-confirm" onClick={() => void setup.confirm()}>
                Install and test
              </button>
            </>
          )}
          {state.kind === "error" && (
            <>
              <button type="button" data-testid="setup-close" onClick={setup.close}>
                Close
              </button>
              <button type="button" class="primary" data-testid="setup-confirm" onClick={() => void setup.confirm()}>
                Try again
              </button>
            </>
          )}
          {state.kind === "done" && (
            <button type="button" class="primary" data-testid="setup-close" onClick={setup.close}>
              Done
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
