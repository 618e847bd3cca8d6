import { effect } from "@preact/signals";
import { render } from "preact";
import { defaultApi } from "./api/client.ts";
import { createRunEventStream } from "./api/run-events.ts";
import { createAppModel } from "./state/app.ts";
import { Shell } from "./views/shell.tsx";

const app = createAppModel({ api: defaultApi, stream: createRunEventStream() });

/** `#/p/<projectId>/c/<conversationId>`: a reload reopens the same conversation (and resumes its runs). */
function readSelection(): { projectId: string | null; conversationId: string | null } {
  const match = /^#\/p\/([^/]+)(?:\/c\/([^/]+))?/.exec(location.hash);
  return { projectId: match?.[1] ? decodeURIComponent(match[1]) : null, conversationId: match?.[2] ? decodeURIComponent(match[2]) : null };
}

effect(() => {
  document.documentElement.dataset.theme = app.config.theme.value;
});
void app.start(readSelection()).then(() => {
  effect(() => {
    const p = app.workspace.projectId.value;
    const c = app.workspace.conversationId.value;
    const hash = p ? `#/p/${encodeURIComponent(p)}${c ? `/c/${encodeURIComponent(c)}` : ""}` : "";
    if (location.hash !== hash) history.replaceState(null, "", hash || location.pathname);
  });
});
render(<Shell app={app} />, document.getElementById("app")!);
