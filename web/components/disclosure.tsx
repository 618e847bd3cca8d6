/**
 * A `<details>` whose body is rendered only while it is open: a closed 400-line diff is one summary in the DOM, not
 * 400 spans. What the reader opened or closed is kept by key (web/state/disclosures.ts), so a section stays as they
 * left it when its row scrolls out of the windowed list and back.
 */
import { createContext, type ComponentChildren, type DetailsHTMLAttributes } from "preact";
import { chooseDisclosed, isDisclosed, sectionKey } from "../state/disclosures.ts";

/** What makes a section's `id` unique in the page: the run it belongs to. */
export const DisclosureScope = createContext<string>("");

type DetailsAttributes = Omit<DetailsHTMLAttributes<HTMLDetailsElement>, "open" | "children" | "onToggle" | "id">;

export function Disclosure({ id, open: byDefault, summary, summaryClass, bodyWhileClosed = false, children, ...attributes }: DetailsAttributes & {
  /** Unique within its scope (a run): the tool call's key and which of its sections. */
  id: string;
  /** Open until the reader chooses. */
  open: boolean;
  summary: ComponentChildren;
  summaryClass?: string;
  /** The body, rendered only while open… */
  children: () => ComponentChildren;
  /** …or always, for a body of one text node (find-in-page still reaches it while closed). */
  bodyWhileClosed?: boolean;
}) {
  // A Consumer, not a hook: tool cards also render outside a tree (tests serialise them without a DOM).
  return (
    <DisclosureScope.Consumer>
      {(scope) => {
        const key = sectionKey(scope ?? "", id);
        const open = isDisclosed(key, byDefault);
        return (
          <details
            {...attributes}
            open={open}
            // The browser also reports the state a render set: only a change from it is the reader's (a toggle that
            // is not a click on the summary).
            onToggle={(event) => {
              const nowOpen = event.currentTarget.open;
              if (nowOpen !== isDisclosed(key, byDefault)) chooseDisclosed(key, nowOpen);
            }}
          >
            <summary
              class={summaryClass}
              // The reader's click (or Enter / Space) is their choice at once. Left to the browser, the toggle is
              // reported a task later, and a render of the row in between (a list measuring its rows, a live run's
              // next event) set `open` back first: the click was lost.
              onClick={(event) => {
                const control = (event.target as Element).closest("a, button, input, select, textarea, label");
                if (control && control !== event.currentTarget && event.currentTarget.contains(control)) return;
                event.preventDefault();
                chooseDisclosed(key, !(event.currentTarget.parentElement as HTMLDetailsElement).open);
              }}
            >
              {summary}
            </summary>
            {(open || bodyWhileClosed) && children()}
          </details>
        );
      }}
    </DisclosureScope.Consumer>
  );
}
