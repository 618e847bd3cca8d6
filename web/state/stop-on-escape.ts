/**
 * Esc stops the running turn from anywhere in the page, unless a dialog is open (there Esc closes the dialog) or a
 * key handler already took it (a menu, a picker).
 */
export type EscapeTarget = Pick<EventTarget, "addEventListener" | "removeEventListener">;

/** True when some dialog of the page is open: Esc belongs to it. */
function dialogOpen(doc: Pick<Document, "querySelector">): boolean {
  return doc.querySelector("dialog[open], [role=dialog][aria-modal=true]") !== null;
}

/** Listens on `target` (the document); returns the function that stops listening. */
export function stopOnEscape(target: EscapeTarget, doc: Pick<Document, "querySelector">, stop: () => boolean): () => void {
  const onKey = (event: Event) => {
    const key = event as KeyboardEvent;
    if (key.key !== "Escape" || key.defaultPrevented || key.isComposing || dialogOpen(doc)) return;
    if (stop()) key.preventDefault();
  };
  target.addEventListener("keydown", onKey);
  return () => target.removeEventListener("keydown", onKey);
}
