/** The prompt box: agent/model/reasoning pickers, skill chips with `@` completion, image attachments, Send/Stop. */
import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { PERMISSION_MODES, type PermissionModeValue } from "../../server/contracts/approval-values.ts";
import type { AgentsView } from "../state/agents.ts";
import type { ComposerModel } from "../state/composer.ts";
import type { ConversationModel } from "../state/conversation.ts";
import { CloseIcon, ImageIcon } from "./icons.tsx";

/** The picker's last option: not an agent, it opens Settings on the agents that are not installed. */
export const INSTALL_MORE = "__install";

/**
 * Installed agents first, then the ones needing od's setup step (enabled: choosing one opens its setup dialog);
 * the agents that are not installed are one last option that opens Settings on their install commands.
 */
export function AgentPicker({ composer, agents, onInstallMore }: { composer: ComposerModel; agents: AgentsView; onInstallMore?: () => void }) {
  const current = composer.agent.value;
  const missing = agents.groups.value.notInstalled.length;
  return (
    <select
      data-testid="agent-picker"
      aria-label="Agent"
      value={current?.id ?? ""}
      onChange={(e) => {
        const select = e.currentTarget as HTMLSelectElement;
        const id = select.value;
        // A setup-required agent opens its setup dialog; the picker stays on the current agent until setup selects it.
        if (!agents.byId(id)?.available) select.value = current?.id ?? "";
        if (id === INSTALL_MORE) onInstallMore?.();
        else composer.chooseAgent(id);
      }}
    >
      {!current && <option value="">{agents.load.value === "loading" ? "Detecting agents…" : "No agent available"}</option>}
      {agents.pickable.value.map((agent) => (
        <option key={agent.id} value={agent.id} data-state={agent.state} title={agent.path}>
          {agent.name}
          {agent.state === "setup-required" ? " — set up…" : ""}
        </option>
      ))}
      {missing > 0 && onInstallMore && (
        <option value={INSTALL_MORE} data-testid="install-more">
          {missing} more not installed…
        </option>
      )}
    </select>
  );
}

function ModelPicker({ composer }: { composer: ComposerModel }) {
  const models = composer.models.value;
  const selected = composer.selectedModel.value;
  const known = models.some((m) => m.id === selected);
  const [custom, setCustom] = useState(false);
  if (!composer.agent.value) return null;
  const showCustom = composer.customModelAllowed.value && (custom || (!known && selected !== "default"));
  return (
    <>
      <select
        data-testid="model-picker"
        aria-label="Model"
        value={showCustom ? "__custom" : selected}
        onChange={(e) => {
          const value = (e.currentTarget as HTMLSelectElement).value;
          if (value === "__custom") setCustom(true);
          else {
            setCustom(false);
            composer.chooseModel(value);
          }
        }}
      >
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.label}
          </option>
        ))}
        {composer.customModelAllowed.value && <option value="__custom">Custom model…</option>}
      </select>
      {showCustom && (
        <input
          class="custom-model"
          data-testid="custom-model"
          placeholder="model id"
          value={known ? "" : selected}
          onChange={(e) => composer.chooseModel((e.currentTarget as HTMLInputElement).value.trim())}
        />
      )}
      {composer.reasoningChoices.value.length > 0 && (
        <select
          data-testid="reasoning-picker"
          aria-label="Reasoning"
          value={composer.selectedReasoning.value}
          onChange={(e) => composer.chooseReasoning((e.currentTarget as HTMLSelectElement).value)}
        >
          {composer.reasoningChoices.value.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
      )}
    </>
  );
}

const PERMISSION_LABELS: Record<PermissionModeValue, string> = {
  bypass: "Acts without asking",
  ask: "Asks before acting",
  "read-only": "Read-only",
};

/** One control for how much the agent may do without asking; modes this agent cannot honour are offered disabled. */
function PermissionPicker({ composer }: { composer: ComposerModel }) {
  const agent = composer.agent.value;
  if (!agent) return null;
  const supported = composer.permissionModes.value;
  return (
    <select
      data-testid="permission-picker"
      aria-label="Permissions"
      title={supported.length === 1 ? `${agent.name} cannot ask before it acts here` : "How much the agent may do without asking you"}
      value={composer.permissionMode.value}
      onChange={(e) => {
        const mode = (e.currentTarget as HTMLSelectElement).value as PermissionModeValue;
        // Asking for notifications needs a click: this is the one that makes a waiting question worth one.
        if (mode === "ask" && typeof Notification !== "undefined" && Notification.permission === "default") void Notification.requestPermission();
        void composer.choosePermissionMode(mode);
      }}
    >
      {PERMISSION_MODES.map((mode) => (
        <option key={mode} value={mode} disabled={!supported.includes(mode)}>
          {PERMISSION_LABELS[mode]}
        </option>
      ))}
    </select>
  );
}

/** A button that stays pressed while its option is on. */
function Toggle({ testId, pressed, title, onClick, children }: { testId: string; pressed: boolean; title: string; onClick: () => void; children: ComponentChildren }) {
  return (
    <button type="button" class="ghost" data-testid={testId} aria-pressed={pressed} title={title} onClick={onClick}>
      {children}
    </button>
  );
}

/** "Ask several agents": one checkbox per installed agent; the prompt goes to each one checked (two or more). */
function SeveralAgents({ composer, agents }: { composer: ComposerModel; agents: AgentsView }) {
  const picked = composer.severalIds.value;
  return (
    <fieldset class="several-agents" data-testid="several-agents">
      <legend>Ask several agents — each works in its own git worktree; compare their changes, then apply one</legend>
      {agents.available.value.map((agent) => (
        <label key={agent.id} class="several-agent">
          <input type="checkbox" data-testid="several-agent" value={agent.id} checked={picked.includes(agent.id)} onChange={() => composer.toggleSeveralAgent(agent.id)} />
          {agent.name}
        </label>
      ))}
      {picked.length < 2 && <span class="muted">pick two or more</span>}
    </fieldset>
  );
}

export function Composer({
  composer,
  agents,
  conversation,
  onInstallMore,
}: {
  composer: ComposerModel;
  agents: AgentsView;
  conversation: ConversationModel;
  onInstallMore?: () => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const running = conversation.activeRun.value !== null;
  const mentions = composer.mentionOptions.value;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      if (mentions[0] && composer.mentionQuery.value !== null) composer.acceptMention(mentions[0]);
      else void composer.submit();
    }
    // Esc stops the run from anywhere in the page (useStopOnEscape), the composer included.
  };

  return (
    <form
      class={`composer${dragging ? " dragging" : ""}`}
      data-testid="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void composer.submit();
      }}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        if (e.dataTransfer?.files) void composer.addImages(Array.from(e.dataTransfer.files));
      }}
    >
      <FollowUpList composer={composer} conversation={conversation} running={running} />
      {(composer.skillIds.value.length > 0 || composer.attachments.value.length > 0) && (
        <div class="chips">
          {composer.skillIds.value.map((id) => (
            <span key={id} class="chip" data-testid="skill-chip">
              @{id}
              <button type="button" class="chip-x" aria-label={`Remove ${id}`} onClick={() => composer.removeSkill(id)}>
                <CloseIcon />
              </button>
            </span>
          ))}
          {composer.attachments.value.map((a) => (
            <span key={a.path} class="chip" data-testid="attachment-chip">
              <ImageIcon size={14} /> {a.name}
              <button type="button" class="chip-x" aria-label={`Remove ${a.name}`} onClick={() => composer.removeAttachment(a.path)}>
                <CloseIcon />
              </button>
            </span>
          ))}
        </div>
      )}
      {mentions.length > 0 && (
        <ul class="mentions" role="listbox" data-testid="mention-list">
          {mentions.map((skill) => (
            <li key={skill.id}>
              <button type="button" onClick={() => composer.acceptMention(skill)}>
                <strong>@{skill.id}</strong> <span class="muted">{skill.description ?? skill.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {composer.several.value && <SeveralAgents composer={composer} agents={agents} />}
      <label class="visually-hidden" for="composer-input">
        Message to the agent
      </label>
      <textarea
        id="composer-input"
        data-testid="composer-input"
        rows={3}
        placeholder="Ask your agent… (Enter to send, Shift+Enter for a new line, @ for skills)"
        value={composer.text.value}
        onInput={(e) => (composer.text.value = (e.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={onKeyDown}
        onPaste={(e) => {
          const images = Array.from(e.clipboardData?.files ?? []).filter((f) => f.type.startsWith("image/"));
          if (images.length) {
            e.preventDefault();
            void composer.addImages(images);
          }
        }}
      />
      <div class="composer-bar">
        {!composer.several.value && (
          <>
            <AgentPicker composer={composer} agents={agents} onInstallMore={onInstallMore} />
            <ModelPicker composer={composer} />
          </>
        )}
        <PermissionPicker composer={composer} />
        {composer.fresh.value && !composer.several.value && (
          <Toggle testId="own-worktree" pressed={composer.isolated.value} title="Run in a git worktree of its own: your checkout is untouched until you apply its changes" onClick={() => (composer.isolated.value = !composer.isolated.peek())}>
            Own worktree
          </Toggle>
        )}
        <Toggle testId="ask-several" pressed={composer.several.value} title="Send this prompt to two or more agents at once, each in its own worktree" onClick={composer.toggleSeveral}>
          Ask several agents
        </Toggle>
        <button type="button" class="ghost" title="Attach images" onClick={() => fileInput.current?.click()}>
          Attach
        </button>
        <input
          ref={fileInput}
          type="file"
          data-testid="attach-input"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          hidden
          onChange={(e) => {
            const input = e.currentTarget as HTMLInputElement;
            if (input.files) void composer.addImages(Array.from(input.files));
            input.value = "";
          }}
        />
        <span class="spacer" />
        {composer.uploading.value > 0 && <span class="muted">uploading…</span>}
        {composer.startingProject.value && <span class="muted">starting a project…</span>}
        {running ? (
          <button type="button" class="danger" data-testid="stop" onClick={() => void conversation.stop()}>
            Stop (Esc)
          </button>
        ) : null}
        <button
          type="submit"
          class="primary"
          data-testid="send"
          disabled={!composer.canSend.value}
          title={running && !composer.several.value ? "Queue this message: it is sent when the run ends" : undefined}
        >
          {running && !composer.several.value ? "Queue" : "Send"}
        </button>
      </div>
      {(composer.error.value || conversation.error.value) && <p class="error">{composer.error.value ?? conversation.error.value}</p>}
    </form>
  );
}

/** The follow-ups queued while a run works: each says when it goes, and can be sent now, edited or removed. */
function FollowUpList({ composer, conversation, running }: { composer: ComposerModel; conversation: ConversationModel; running: boolean }) {
  const followUps = conversation.followUps.here.value;
  if (!followUps.length) return null;
  return (
    <ul class="follow-ups" data-testid="follow-ups" aria-label="Queued messages">
      {followUps.map((followUp) => (
        <li key={followUp.id} class="follow-up" data-testid="follow-up">
          <span class="follow-up-text">{followUp.request.message}</span>
          <span class="muted follow-up-when">{followUp.held ? "waits for you" : "sends when the run ends"}</span>
          {followUp.held && (
            <button type="button" class="ghost" data-testid="follow-up-send" disabled={running} onClick={() => void conversation.followUps.sendNow(followUp.id)}>
              Send now
            </button>
          )}
          <button type="button" class="ghost" data-testid="follow-up-edit" onClick={() => composer.editFollowUp(followUp.id)}>
            Edit
          </button>
          <button type="button" class="ghost" data-testid="follow-up-remove" aria-label={`Remove the queued message "${followUp.request.message.slice(0, 40)}"`} onClick={() => conversation.followUps.remove(followUp.id)}>
            <CloseIcon />
          </button>
        </li>
      ))}
    </ul>
  );
}
