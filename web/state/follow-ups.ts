/**
 * Follow-ups typed while a run works: queued on the conversation, and each sent when the run before it ends. A run the
 * person stopped sends nothing on its own (stopping is often the wish to say something else): its queue is held until
 * "Send now". So is the queue of a conversation the page leaves, since no run of it is watched any more; back on it,
 * the queue is there, held. Nothing typed is lost: a follow-up that od refused stays queued, held, with the reason.
 */
import { computed, signal, type ReadonlySignal } from "@preact/signals";
import type { SendRequest } from "./conversation.ts";

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
}

export function createFollowUps({ conversationId, sendNow }: FollowUpDeps) {
  const all = signal<FollowUp[]>([], { name: "followUps.all" });
  let nextId = 1;
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
