/** The middle column: the open conversation's turns (history and live), the composer, and teaching empty states. */
import { useEffect, useRef } from "preact/hooks";
import { CopyCommand } from "../components/copy-button.tsx";
import { Composer } from "../components/composer.tsx";
import { RunView } from "../components/run-view.tsx";
import type { AppModel } from "../state/app.ts";
import type { RunChangesModel } from "../state/run-changes.ts";
import type { RunModel } from "../state/run-model.ts";

function LiveRun({ run, onOpenFile, changes }: { run: RunModel; onOpenFile: (path: string) => void; changes: RunChangesModel }) {
  return (
    <>
      <RunView state={run.state.value} live onOpenFile={onOpenFile} changes={changes} />
      {run.trouble.value && <p class="muted">{run.trouble.value}</p>}
    </>
  );
}

function NoAgentInstalled({ app }: { app: AppModel }) {
  const commands = app.agents.suggestedCommands.value;
  return (
    <div class="empty-state" data-testid="no-agent">
      <h1>Install a coding agent to begin</h1>
      <p>od drives the agent CLIs you already have — Claude Code, Codex, OpenCode, Copilot, Pi and more. None was found on this machine.</p>
      {commands.length > 0 && (
        <ul class="install-list">
          {commands.slice(0, 6).map((c) => (
            <li key={`${c.agentId}:${c.command}`}>
              <span>{c.agentName}</span> <CopyCommand command={c.command} />
            </li>
          ))}
        </ul>
      )}
      <p>
        Then{" "}
        <button type="button" class="link" onClick={() => void app.agents.rescan()}>
          rescan
        </button>{" "}
        or open{" "}
        <button type="button" class="link" onClick={() => (app.settingsOpen.value = true)}>
          Settings
        </button>
        .
      </p>
    </div>
  );
}

export function ConversationView({ app }: { app: AppModel }) {
  const { conversation, workspace, agents, files } = app;
  const bottom = useRef<HTMLDivElement>(null);
  const timeline = conversation.timeline.value;
  const openFile = (path: string) => void files.select(path);
  const lastRunState = conversation.activeRun.value?.state.value;

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: "end" });
  }, [timeline.length, lastRunState]);

  const noAgents = agents.load.value === "done" && agents.available.value.length === 0;
  return (
    <main class="conversation" aria-label="Conversation">
      <div class="timeline" data-testid="timeline">
        {!workspace.project.value && (
          <div class="empty-state">
            <h1>One calm place for your coding agents</h1>
            <p>Create a project (a folder on disk) in the sidebar, or open one you already have, then ask an agent to build something.</p>
          </div>
        )}
        {workspace.project.value && timeline.length === 0 && !noAgents && (
          <div class="empty-state">
            <h1>{workspace.conversation.value?.title ?? workspace.project.value.name}</h1>
            <p class="muted">{workspace.project.value.path}</p>
            <p>Describe what you want; the agent works in this folder and its files appear on the right.</p>
          </div>
        )}
        {noAgents && <NoAgentInstalled app={app} />}
        {timeline.map((entry) => {
          switch (entry.kind) {
            case "user":
              return (
                <div key={entry.key} class={`user-message${entry.pending ? " pending" : ""}`} data-testid="user-message">
                  {entry.text}
                </div>
              );
            case "history":
              return <RunView key={entry.key} state={conversation.historyOf(entry.message)} live={false} onOpenFile={openFile} changes={app.changes} />;
            case "run":
              return <LiveRun key={entry.key} run={entry.run} onOpenFile={openFile} changes={app.changes} />;
          }
        })}
        <div ref={bottom} />
      </div>
      {workspace.project.value && <Composer composer={app.composer} agents={agents} conversation={conversation} />}
    </main>
  );
}
