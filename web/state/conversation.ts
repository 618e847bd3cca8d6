/**
 * The open conversation: its persisted messages plus a live RunModel per active run. On a reload it fetches the
 * messages and the active runs, and re-opens each run's event stream from id 0; the run model de-duplicates.
 */
import type { ApprovalDecision, QuestionAnswers } from "../../server/contracts/approvals.ts";
import { batch, computed, signal, type ReadonlySignal, type Signal } from "@preact/signals";
import type { Message } from "../../server/contracts/projects.ts";
import type { CreateRunRequest, RunHistoryResponse, RunSummary } from "../../server/contracts/runs.ts";
import { errorMessage, type Api } from "../api/client.ts";
import type { SecretStorage } from "../api/session.ts";
import type { RunEventStream } from "../api/run-events.ts";
import { createFollowUps } from "./follow-ups.ts";
import { historyState } from "./run-history.ts";
import { createRunModel, type RunModel } from "./run-model.ts";
import { emptyRunState, type RunState } from "./run-state.ts";
import type { FrameScheduler } from "./scheduler.ts";

/** One row of the conversation as the view renders it. */
export type TimelineEntry =
  | { kind: "user"; key: string; text: string; pending: boolean }
  | { kind: "history"; key: string; message: Message }
  | { kind: "run"; key: string; run: RunModel };

/** What the composer sends; the conversation adds the project and conversation ids. */
export type SendRequest = Omit<CreateRunRequest, "projectId" | "conversationId">;

export interface ConversationModelOptions {
  api: Api;
  stream: RunEventStream;
  schedule?: FrameScheduler;
  onFilesChanged?: () => void;
  /** Where queued follow-ups are kept between page loads (follow-ups.ts). */
  storage?: SecretStorage;
  /** POST /api/runs created a new conversation. */
  onConversationCreated?: (conversationId: string) => void;
}

export function createConversationModel(options: ConversationModelOptions) {
  const { api } = options;
  const projectId = signal<string | null>(null, { name: "conversation.projectId" });
  const conversationId = signal<string | null>(null, { name: "conversation.id" });
  const messages = signal<Message[]>([], { name: "conversation.messages" });
  const runs = signal<RunModel[]>([], { name: "conversation.runs" });
  const pending = signal<Array<{ runId: string; text: string }>>([], { name: "conversation.pending" });
  const error = signal<string | null>(null, { name: "conversation.error" });
  const sending = signal(false, { name: "conversation.sending" });
  let generation = 0;
  /** The view of each finished turn shown, by message id and run status: `loading` until its events are in. */
  let histories = new Map<string, Signal<RunState>>();
  /** How many of those are still being fetched. */
  const historiesFetching = signal(0, { name: "conversation.historiesFetching" });
  /** How many of those have arrived: each arrival changes the height of its turn's row. */
  const historiesArrived = signal(0, { name: "conversation.historiesArrived" });

  const followUps = createFollowUps({ conversationId, sendNow: (request) => send(request), storage: options.storage });
  const activeRun = computed(() => runs.value.findLast((run) => run.running.value) ?? null, { name: "conversation.activeRun" });
  /**
   * What a screen reader is told (a polite live region): the newest run's phase — working, waiting for an answer,
   * how it ended — never its streamed text, so it speaks a few times a run, not with every delta.
   */
  const announcement = computed(
    () => {
      const run = runs.value.at(-1);
      if (!run) return "";
      const state = run.state.value;
      if (state.end) return state.end.status === "succeeded" ? "The agent finished." : state.end.status === "canceled" ? "The run was stopped." : `The run failed: ${state.end.reason}`;
      if (state.openApprovals > 0) return "The agent asks before it acts: your answer is needed.";
      return "The agent is working.";
    },
    { name: "conversation.announcement" },
  );
  /** How many questions of this conversation's live runs wait for the person (the tab's title says so). */
  const waitingApprovals = computed(() => runs.value.reduce((n, run) => n + run.state.value.openApprovals, 0), { name: "conversation.waitingApprovals" });

  const timeline = computed<TimelineEntry[]>(
    () => {
      const live = new Map(runs.value.map((run) => [run.runId, run]));
      const entries: TimelineEntry[] = [];
      const shown = new Set<string>();
      for (const message of messages.value) {
        if (message.role === "user") entries.push({ kind: "user", key: message.id, text: message.text, pending: false });
        else if (message.runId && live.has(message.runId)) {
          entries.push({ kind: "run", key: message.id, run: live.get(message.runId)! });
          shown.add(message.runId);
        } else entries.push({ kind: "history", key: message.id, message });
      }
      for (const run of runs.value) {
        if (shown.has(run.runId)) continue;
        const waiting = pending.value.find((p) => p.runId === run.runId);
        if (waiting) entries.push({ kind: "user", key: `pending-${run.runId}`, text: waiting.text, pending: true });
        entries.push({ kind: "run", key: run.runId, run });
      }
      return entries;
    },
    { name: "conversation.timeline" },
  );

  function attach(runId: string): RunModel {
    const existing = runs.peek().find((run) => run.runId === runId);
    if (existing) return existing;
    const mine = generation;
    const run = createRunModel({
      runId,
      api,
      stream: options.stream,
      schedule: options.schedule,
      onFilesChanged: options.onFilesChanged,
      onEnd: (ended) => {
        if (mine !== generation) return;
        void refreshMessages();
        void followUps.runEnded(ended.end?.status);
      },
    });
    runs.value = [...runs.peek(), run];
    run.connect();
    return run;
  }

  async function refreshMessages(): Promise<void> {
    const id = conversationId.peek();
    if (!id) return;
    const mine = generation;
    try {
      // Without each answer's folded events: a finished turn is shown from its run's stored events (historyOf).
      const list = (await api.get<{ messages: Message[] }>(`/api/conversations/${encodeURIComponent(id)}/messages?events=0`)).messages;
      if (mine !== generation) return;
      messages.value = list;
      pending.value = [];
    } catch (loadError) {
      if (mine === generation) error.value = errorMessage(loadError);
    }
  }

  /** Opens a conversation (null: a new one in `project`), resuming its active runs. */
  async function load(project: string | null, conversation: string | null): Promise<void> {
    const leaving = conversationId.peek();
    if (leaving && leaving !== conversation) followUps.left(leaving);
    disposeRuns();
    const mine = ++generation;
    histories = new Map();
    historiesFetching.value = 0;
    historiesArrived.value = 0;
    projectId.value = project;
    conversationId.value = conversation;
    messages.value = [];
    pending.value = [];
    error.value = null;
    if (!conversation) return;
    const query = new URLSearchParams({ conversationId: conversation, status: "active" });
    const [, active] = await Promise.all([
      refreshMessages(),
      api.get<{ runs: RunSummary[] }>(`/api/runs?${query}`).catch(() => ({ runs: [] as RunSummary[] })),
    ]);
    if (mine !== generation) return;
    for (const run of active.runs) attach(run.id);
  }

  /** Starts a run, or queues the request as a follow-up while a run of the conversation works (follow-ups.ts). */
  async function send(request: SendRequest): Promise<boolean> {
    if (activeRun.peek() && conversationId.peek()) return followUps.add(request) !== null;
    return start(request);
  }

  async function start(request: SendRequest): Promise<boolean> {
    const project = projectId.peek();
    if (!project || sending.peek()) return false;
    sending.value = true;
    error.value = null;
    try {
      const conversation = conversationId.peek();
      const body: CreateRunRequest = { ...request, projectId: project, ...(conversation ? { conversationId: conversation } : {}) };
      const created = await api.post<{ runId: string; conversationId: string }>("/api/runs", body);
      if (!conversation) {
        conversationId.value = created.conversationId;
        options.onConversationCreated?.(created.conversationId);
      }
      pending.value = [...pending.peek(), { runId: created.runId, text: request.message }];
      attach(created.runId);
      void refreshMessages();
      return true;
    } catch (sendError) {
      error.value = errorMessage(sendError);
      return false;
    } finally {
      sending.value = false;
    }
  }

  async function stop(): Promise<void> {
    try {
      await activeRun.peek()?.cancel();
    } catch (stopError) {
      error.value = errorMessage(stopError);
    }
  }

  const historyKey = (message: Message) => `${message.id}:${message.runStatus ?? ""}`;

  /**
   * The view of a finished turn: its run's stored events folded by the live fold (fetched once per message and
   * status, when a view first asks: the timeline asks only for the turns near the viewport, so opening a long
   * conversation fetches what is shown, not every turn it ever had). A view reading this re-renders when they
   * arrive; until then it is an empty run, `loading`.
   */
  function historyOf(message: Message): RunState {
    let entry = histories.get(historyKey(message));
    if (!entry) {
      entry = signal<RunState>({ ...emptyRunState(message.runId ?? message.id), statusLabel: "loading" }, { name: `conversation.history.${message.id}` });
      histories.set(historyKey(message), entry);
      void loadHistory(message, entry);
    }
    return entry.value;
  }

  /** The view of a finished turn if its events were fetched, without fetching them. */
  function fetchedHistoryOf(message: Message): RunState | undefined {
    const state = histories.get(historyKey(message))?.value;
    return state && state.statusLabel !== "loading" ? state : undefined;
  }

  /** Fetches every finished turn's events (a reload going back to a place mid-conversation needs their sizes). */
  function fetchAllHistories(): void {
    for (const entry of timeline.peek()) if (entry.kind === "history") historyOf(entry.message);
  }

  /** Whether a turn that was asked for is still being fetched. */
  const historiesLoading = computed(() => historiesFetching.value > 0, { name: "conversation.historiesLoading" });

  async function loadHistory(message: Message, entry: Signal<RunState>): Promise<void> {
    const mine = generation;
    historiesFetching.value += 1;
    let stored: RunHistoryResponse["events"] = [];
    try {
      if (message.runId) stored = (await api.get<RunHistoryResponse>(`/api/runs/${encodeURIComponent(message.runId)}/history`)).events;
    } catch {
      // A run the daemon no longer has (or cannot read) still shows what its message says.
    }
    if (mine !== generation) return;
    batch(() => {
      entry.value = historyState(message, stored);
      historiesFetching.value -= 1;
      historiesArrived.value += 1;
    });
  }

  function disposeRuns(): void {
    for (const run of runs.peek()) run.dispose();
    runs.value = [];
  }

  /** The person's answer to one question of a run; throws with od's reason (e.g. already answered). */
  async function answerApproval(runId: string, approvalId: string, decision: ApprovalDecision, message?: string, answers?: QuestionAnswers): Promise<void> {
    await api.post(`/api/runs/${encodeURIComponent(runId)}/approvals/${encodeURIComponent(approvalId)}`, { decision, ...(message ? { message } : {}), ...(answers ? { answers } : {}) });
  }

  function dispose(): void {
    generation++;
    disposeRuns();
  }

  return {
    announcement,
    waitingApprovals,
    answerApproval,
    projectId,
    conversationId,
    messages,
    runs,
    error,
    sending,
    activeRun,
    timeline,
    load,
    attach,
    refreshMessages,
    send,
    followUps,
    stop,
    historyOf,
    fetchedHistoryOf,
    fetchAllHistories,
    historiesLoading,
    historiesArrived: historiesArrived as ReadonlySignal<number>,
    dispose,
    [Symbol.dispose]: dispose,
  };
}
export type ConversationModel = ReturnType<typeof createConversationModel>;
