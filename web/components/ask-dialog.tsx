/**
 * The page's own dialogs in place of the browser's `prompt` and `confirm`: a modal `<dialog>` (the browser keeps
 * focus inside it, Esc cancels, and focus goes back to the button that opened it), with a text field for a rename
 * and a plain question for a removal.
 */
import { useEffect, useRef, useState } from "preact/hooks";

export type Ask =
  | { kind: "rename"; title: string; label: string; value: string; onDone: (value: string) => void }
  | { kind: "confirm"; title: string; message: string; confirmLabel: string; onDone: () => void };

export function AskDialog({ ask, onClose }: { ask: Ask | null; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [value, setValue] = useState("");
  const opener = useRef<Element | null>(null);
  /** The ask the dialog was last opened for, until it closes. */
  const shown = useRef<Ask | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (ask && !element.open) {
      opener.current = document.activeElement;
      setValue(ask.kind === "rename" ? ask.value : "");
      shown.current = ask;
      element.showModal();
    } else if (!ask && element.open) element.close();
  }, [ask]);

  // The dialog's `close` event (Esc, Cancel or the answer) is a task the browser queues when it closes. By then the
  // person may have asked something new (Esc, then Enter on the same button at once): that close is the previous
  // ask's, and clearing the new one with it left the dialog shut. Focus goes back to the opener here, never while the
  // dialog is open (the page is inert around a modal dialog, so focusing the opener then did nothing).
  const closed = () => {
    const dialogElement = dialog.current;
    if (dialogElement?.open || shown.current !== ask) return;
    shown.current = null;
    onClose();
    (opener.current as HTMLElement | null)?.focus?.();
  };

  return (
    <dialog ref={dialog} class="ask-dialog" data-testid="ask-dialog" aria-labelledby="ask-dialog-title" onClose={closed}>
      {ask && (
        <form
          method="dialog"
          onSubmit={(e) => {
            e.preventDefault();
            if (ask.kind === "rename") {
              const next = value.trim();
              if (next && next !== ask.value) ask.onDone(next);
            } else ask.onDone();
            dialog.current?.close();
          }}
        >
          <h2 id="ask-dialog-title">{ask.title}</h2>
          {ask.kind === "rename" ? (
            <label>
              {ask.label}
              <input data-testid="ask-dialog-input" value={value} autoFocus onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)} />
            </label>
          ) : (
            <p>{ask.message}</p>
          )}
          <div class="row">
            <button type="submit" class={ask.kind === "confirm" ? "danger" : "primary"} data-testid="ask-dialog-ok">
              {ask.kind === "confirm" ? ask.confirmLabel : "Rename"}
            </button>
            <button type="button" data-testid="ask-dialog-cancel" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
