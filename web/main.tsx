import { render } from "preact";
import { createDaemonModel } from "./state/daemon.ts";
import { Shell } from "./views/shell.tsx";

const daemon = createDaemonModel();
void daemon.check();
render(<Shell daemon={daemon} />, document.getElementById("app")!);
