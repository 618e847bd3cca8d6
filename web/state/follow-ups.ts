/**
 * Follow-ups typed while a run works: queued on the conversation, and each sent when the run before it ends. A run the
 * person stopped sends nothing on its own (stopping is often the wish to say something else): its queue is held until
 * "Send now". So is the queue of a conversation the page leaves, since no run of it is watched any more; back on it,
 * the queue is there, held. Nothing typed is lost: a follow-up that od refused stays queued, held, with the reason,
 * and the queue is kept in the page's storage, so a reload brings it back (held: the page cannot tell what ended
 * while it was away).
 */
import { computed, signal, type ReadonlySignal } from "@preact/signals";
import type { SecretStorage } from "../api/session.ts";
import type { SendRequest } from "./conversation.ts";

/** Where the queue is kept between page loads. */
const STORAGE_KEY = "od.followUps";

export interface FollowUp {
  id: number;
  conversationId: string;
  request: SendRequest;
  /** Waits for "Send now": its run was stopped, its conversation was left, or od refused it. */
  held: boolean;
}

export interface FollowUpDeps {
  conversationId: ReadonlySignal<string | null>;
  /** Sends a request now (a run is started); resolves false when od refused it. */
  sendNow: (request: SendRequest) => Promise<boolean>;
  /** The page's storage (none: the queue lasts as long as the page). */
  storage?: SecretStorage;
}

function restored(storage: SecretStorage | undefined): FollowUp[] {
  try {
    const kept = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "[]") as FollowUp[];
    return Array.isArray(kept) ? kept.filter((f) => f && typeof f.conversationId === "string" && typeof f.request?.message === "string").map((f) => ({ ...f, held: true })) : [];
  } catch {
    return [];
  }
}

export function createFollowUps({ conversationId, sendNow, storage }: FollowUpDeps) {
  const all = signal<FollowUp[]>(restored(storage), { name: "followUps.all" });
  let nextId = Math.max(0, ...all.peek().map((f) => f.id)) + 1;
  // Every change is kept at once: a reload or a closed tab loses nothing typed.
  all.subscribe((list) => {
    try {
      if (list.length) storage?.setItem(STORAGE_KEY, JSON.stringify(list));
      else storage?.removeItem(STORAGE_KEY);
    } catch {
      // Storage full or refused: the queue still lasts as long as the page.
    }
  });
  /** The open conversation's follow-ups, oldest first. */
  const here = computed(() => all.value.filter((f) => f.conversationId === conversationId.value), { name: "followUps.here" });

  function add(request: SendRequest): FollowUp | null {
    const conversation = conversationId.peek();
    if (!conversation) return null;
    const followUp = { id: nextId++, conversationId: conversation, request, held: false };
    all.value = [...all.peek(), followUp];
    return followUp;
  }

  function remove(id: number): FollowUp | undefined {
    const found = all.peek().find((f) => f.id === id);
    if (found) all.value = all.peek().filter((f) => f.id !== id);
    return found;
  }

  function holdWhere(match: (f: FollowUp) => boolean): void {
    if (all.peek().some((f) => match(f) && !f.held)) all.value = all.peek().map((f) => (match(f) ? { ...f, held: true } : f));
  }

  /** Sends `followUp` now; put back first in its queue, held, when od refuses it. */
  async function send(followUp: FollowUp): Promise<boolean> {
    remove(followUp.id);
    if (await sendNow(followUp.request)) return true;
    all.value = [{ ...followUp, held: true }, ...all.peek()];
    return false;
  }

  /**
   * A run of the open conversation ended: the first follow-up waiting on it goes, unless the person stopped the run,
   * which holds the queue.
   */
  async function runEnded(status: string | undefined): Promise<void> {
    const conversation = conversationId.peek();
    if (!conversation) return;
    if (status === "canceled") return holdWhere((f) => f.conversationId === conversation);
    const next = here.peek().find((f) => !f.held);
    if (next) await send(next);
  }

  return {
    here,
    add,
    remove,
    runEnded,
    /** The page leaves `conversation`: its follow-ups wait for "Send now" there. */
    left: (conversation: string) => holdWhere((f) => f.conversationId === conversation),
    /** "Send now" of one follow-up (a run still working makes it wait for that run's end again). */
    sendNow: async (id: number): Promise<boolean> => {
      const found = all.peek().find((f) => f.id === id);
      return found ? send(found) : false;
    },
  };
}
export type FollowUps = ReturnType<typeof createFollowUps>;
