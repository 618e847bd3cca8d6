import { effect } from "@preact/signals";
import { render } from "preact";
import { defaultApi, pageSession } from "./api/client.ts";
import { pageStorage } from "./api/session.ts";
import { createRunEventStream } from "./api/run-events.ts";
import { createAppModel } from "./state/app.ts";
import { stopOnEscape } from "./state/stop-on-escape.ts";
import { browserNotify, followWaitingApprovals } from "./state/waiting-title.ts";
import { Shell } from "./views/shell.tsx";

const app = createAppModel({ api: defaultApi, stream: createRunEventStream(defaultApi), storage: pageStorage() });

/**
 * `#/p/<projectId>/c/<conversationId>`: a reload reopens the same conversation (and resumes its runs);
 * `#/p/<projectId>/g/<groupId>`: the same run group.
 */
function readSelection(): { projectId: string | null; conversationId: string | null; groupId: string | null } {
  const match = /^#\/p\/([^/]+)(?:\/c\/([^/]+)|\/g\/([^/]+))?/.exec(location.hash);
  const part = (i: number) => (match?.[i] ? decodeURIComponent(match[i]) : null);
  return { projectId: part(1), conversationId: part(2), groupId: part(3) };
}

effect(() => {
  document.documentElement.dataset.theme = app.config.theme.value;
});
followWaitingApprovals(app.conversation.waitingApprovals, document, browserNotify);
stopOnEscape(document, document, () => {
  if (!app.conversation.activeRun.peek()) return false;
  void app.conversation.stop();
  return true;
});
/** Trades the `?token=` launch code for a session first, and takes the code out of the address bar and history. */
async function signIn(): Promise<void> {
  const search = location.search;
  if (new URLSearchParams(search).has("token")) history.replaceState(null, "", location.pathname + location.hash);
  const { refused } = await pageSession.signIn(search, fetch).catch((error: unknown) => ({ refused: String(error) }));
  if (refused) app.daemon.signInRefused(refused);
}

void signIn()
  .then(() => app.start(readSelection()))
  .then(() => {
    effect(() => {
      const p = app.workspace.projectId.value;
      const c = app.workspace.conversationId.value;
      const g = app.group.group.value?.groupId;
      const tail = g ? `/g/${encodeURIComponent(g)}` : c ? `/c/${encodeURIComponent(c)}` : "";
      const hash = p ? `#/p/${encodeURIComponent(p)}${tail}` : "";
      if (location.hash !== hash) history.replaceState(null, "", hash || location.pathname);
    });
  });
render(<Shell app={app} />, document.getElementById("app")!);
