/** The middle column: the open conversation's turns (history and live), the composer, and teaching empty states. */
import { useCallback } from "preact/hooks";
import { memo } from "preact/compat";
import { CopyCommand } from "../components/copy-button.tsx";
import { Composer } from "../components/composer.tsx";
import { estimateAnswer, estimateRun, estimateUserMessage } from "../components/row-heights.ts";
import { sectionsOf } from "../state/disclosures.ts";
import { ApprovalAnswerContext } from "../components/approval-card.tsx";
import { McpConsentBanner } from "../components/mcp-consent-banner.tsx";
import { shortVersion } from "../lib/agent-version.ts";
import { RunView } from "../components/run-view.tsx";
import { ScrollerContext, VirtualList } from "../components/virtual-list.tsx";
import type { AppModel } from "../state/app.ts";
import type { ConversationModel, TimelineEntry } from "../state/conversation.ts";
import type { RunChangesModel } from "../state/run-changes.ts";
import { DEFAULT_PROJECT_NAME } from "../state/workspace.ts";
import type { RunModel } from "../state/run-model.ts";
import type { RunState } from "../state/run-state.ts";
import { WorktreeBar } from "../components/worktree-bar.tsx";
import { GroupView } from "./group-view.tsx";
import { useTimelineScroll } from "./timeline-scroll.ts";

/** The gap between timeline rows (`.timeline` in styles.css). */
const ROW_GAP = 12;

/** The live turn: the only component that reads its state, so a frame re-renders this turn and nothing above it. */
const LiveRun = memo(function LiveRun({ run, onOpenFile, changes }: { run: RunModel; onOpenFile: (path: string) => void; changes: RunChangesModel }) {
  return <RunView state={run.state.value} live onOpenFile={onOpenFile} changes={changes} trouble={run.trouble.value} />;
});

/** A finished turn, re-rendered only when its stored events arrive. */
const HistoryRun = memo(function HistoryRun({ entry, conversation, onOpenFile, changes }: {
  entry: Extract<TimelineEntry, { kind: "history" }>;
  conversation: ConversationModel;
  onOpenFile: (path: string) => void;
  changes: RunChangesModel;
}) {
  return <RunView state={conversation.historyOf(entry.message)} live={false} onOpenFile={onOpenFile} changes={changes} />;
});

/** One token per turn state and how far its changes got: a row's measured height holds for the same token only. */
const historyVersions = new WeakMap<RunState, Partial<Record<string, object>>>();

/**
 * What a finished turn's height depends on besides its key: its events (a turn measured while they were loading is
 * guessed again once they arrive), and its changed files, shown below its items once they load. A turn measured
 * before they arrived and then scrolled away kept that shorter height: a reload going back to a place mid-way came
 * back a changed-files panel short for each turn above it that had been shown first.
 */
function historyVersion(entry: TimelineEntry, conversation: ConversationModel, changes: RunChangesModel): object | undefined {
  if (entry.kind !== "history") return undefined;
  const fetched = conversation.fetchedHistoryOf(entry.message);
  if (!fetched) return undefined;
  let byProgress = historyVersions.get(fetched);
  if (!byProgress) historyVersions.set(fetched, (byProgress = {}));
  return (byProgress[changes.progressOf(fetched.runId) ?? "unasked"] ??= {});
}

/** A row's height before it was shown, from what it holds. */
function estimateEntry(entry: TimelineEntry, conversation: ConversationModel): number {
  switch (entry.kind) {
    case "user":
      return estimateUserMessage(entry.text, ROW_GAP);
    case "history": {
      // A turn not fetched yet (off screen) is guessed from its message: rows are fetched as they near the viewport.
      const fetched = conversation.fetchedHistoryOf(entry.message);
      return fetched ? estimateRun(fetched, ROW_GAP, sectionsOf(fetched.runId)) : estimateAnswer(entry.message.text, ROW_GAP);
    }
    case "run":
      const state = entry.run.state.peek();
      return estimateRun(state, ROW_GAP, sectionsOf(state.runId));
  }
}

const INSTALL_SUGGESTIONS_SHOWN = 6;

function NoAgentInstalled({ app }: { app: AppModel }) {
  const commands = app.agents.installSuggestions.value;
  const others = app.agents.groups.value.notInstalled.length - Math.min(commands.length, INSTALL_SUGGESTIONS_SHOWN);
  return (
    <div class="empty-state" data-testid="no-agent">
      <h1>Install a coding agent to begin</h1>
      <p>od drives the agent CLIs you already have — Claude Code, Codex, OpenCode, Copilot, Pi and more. None was found on {app.agents.where}.</p>
      {app.agents.error.value && <p class="error" data-testid="agents-error">{app.agents.error.value}</p>}
      {commands.length > 0 && (
        <ul class="install-list">
          {commands.slice(0, INSTALL_SUGGESTIONS_SHOWN).map((c) => (
            <li key={c.agentId}>
              <strong>{c.agentName}</strong>
              <CopyCommand command={c.command} />
            </li>
          ))}
        </ul>
      )}
      {others > 0 && (
        <p>
          <button type="button" class="link" data-testid="more-agents" onClick={() => app.openSettings("not-installed")}>
            {others} more agents
          </button>{" "}
          in Settings.
        </p>
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

/** Which agents detection found, on the first screen: pick one here; the rest are one click away in Settings. */
function FoundAgents({ app }: { app: AppModel }) {
  const { agents, composer } = app;
  const found = agents.pickable.value;
  const missing = agents.groups.value.notInstalled.length;
  const current = composer.agent.value?.id;
  const detecting = agents.load.value === "loading" || (agents.probing.value && !found.length);
  if (!found.length && !detecting) return null;
  return (
    <div class="found-agents" data-testid="found-agents">
      <span class="muted">{detecting ? `Detecting agents on ${agents.where}…` : `Found on ${agents.where} (${found.length}):`}</span>
      <ul class="agent-chips">
        {found.map((agent) => (
          <li key={agent.id}>
            <button
              type="button"
              class={`agent-chip${agent.id === current ? " selected" : ""}`}
              data-testid="found-agent"
              data-agent-id={agent.id}
              data-state={agent.state}
              aria-pressed={agent.id === current}
              title={agent.path}
              onClick={() => composer.chooseAgent(agent.id)}
            >
              {agent.name}
              {agent.state === "setup-required" ? " — set up…" : agent.version ? <span class="muted"> {shortVersion(agent.version)}</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {missing > 0 && agents.load.value === "done" && (
        <button type="button" class="link" data-testid="more-agents" onClick={() => app.openSettings("not-installed")}>
          {missing} more not installed — how to install
        </button>
      )}
    </div>
  );
}

function FirstScreen({ app }: { app: AppModel }) {
  const hasProjects = app.workspace.projects.value.length > 0;
  return (
    <div class="empty-state" data-testid="first-screen">
      <h1>What should your agent build?</h1>
      <p>
        {hasProjects ? "Pick a project in the sidebar, or type" : "Type"} a prompt below and press Enter: it starts in a new project,{" "}
        <strong>{DEFAULT_PROJECT_NAME}</strong>, a folder od keeps for you (rename it any time).
      </p>
      <FoundAgents app={app} />
    </div>
  );
}

export function ConversationView({ app }: { app: AppModel }) {
  const { conversation, workspace, agents, files } = app;
  const timeline = conversation.timeline.value;
  const openFile = useCallback(
    (path: string) => {
      void files.select(path);
      app.drawer.value = "files"; // a drawer on narrow screens; a column (and this a no-op) on wide ones
    },
    [files, app],
  );
  // A turn whose events arrive changes its row's height: the timeline renders again, so its list measures it.
  void conversation.historiesArrived.value;
  // Finished turns are fetched as their rows near the viewport; going back to a saved place fetches them all.
  const { ref: timelineRef, scroller, places } = useTimelineScroll(conversation.conversationId.value, {
    count: timeline.length,
    loading: () => conversation.historiesLoading.value,
    loadAll: conversation.fetchAllHistories,
  });

  const noAgents = (agents.load.value === "done" || agents.load.value === "error") && agents.available.value.length === 0 && !agents.probing.value;
  const ready = app.daemon.state.value.kind === "ready";
  return (
    <ApprovalAnswerContext.Provider value={conversation.answerApproval}>
    <main class="conversation" aria-label="Conversation">
      {app.group.group.value && <GroupView app={app} />}
      <div class="timeline" data-testid="timeline" ref={timelineRef} hidden={app.group.group.value !== null}>
        {!workspace.project.value && !noAgents && ready && <FirstScreen app={app} />}
        {workspace.project.value && timeline.length === 0 && !noAgents && (
          <div class="empty-state">
            <h1>{workspace.conversation.value?.title ?? workspace.project.value.name}</h1>
            <p class="muted project-path">{workspace.project.value.path}</p>
            <p>Describe what you want; the agent works in this folder and the files it writes appear under Files.</p>
            <FoundAgents app={app} />
          </div>
        )}
        {noAgents && <NoAgentInstalled app={app} />}
        <ScrollerContext.Provider value={scroller}>
          <VirtualList
            items={timeline}
            keyOf={(entry) => entry.key}
            places={places}
            estimate={(entry) => estimateEntry(entry, conversation)}
            versionOf={(entry) => historyVersion(entry, conversation, app.changes)}
            render={(entry) => {
              switch (entry.kind) {
                case "user":
                  return (
                    <div class={`user-message${entry.pending ? " pending" : ""}`} data-testid="user-message">
                      {entry.text}
                    </div>
                  );
                case "history":
                  return <HistoryRun entry={entry} conversation={conversation} onOpenFile={openFile} changes={app.changes} />;
                case "run":
                  return <LiveRun run={entry.run} onOpenFile={openFile} changes={app.changes} />;
              }
            }}
          />
        </ScrollerContext.Provider>
      </div>
      <div class="visually-hidden" role="status" aria-live="polite" data-testid="run-announcer">
        {conversation.announcement.value}
      </div>
      {ready && workspace.project.value && <McpConsentBanner model={app.mcpConsent} />}
      {ready && !app.group.group.value && <WorktreeBar model={app.worktree} />}
      {ready && <Composer composer={app.composer} agents={agents} conversation={conversation} onInstallMore={() => app.openSettings("not-installed")} />}
    </main>
    </ApprovalAnswerContext.Provider>
  );
}
