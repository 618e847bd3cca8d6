// A zombie to test against: a child backgrounded by a shell that then becomes `sleep 600` (the keeper), which never
// reaps it. The child exits only once its parent is `sleep`: one that ended before the shell's `exec` (a busy
// machine) was reaped by the shell, and no zombie was left.
import type { ChildHandle } from "../../server/platform/child.ts";
import { spawnChild } from "../../server/platform/process.ts";
import { processState } from "../../server/runs/process-identity.ts";

const KEEPER = `sh -c 'until [ "$(ps -o comm= -p $PPID)" = sleep ]; do sleep 0.01; done' & echo $!; exec sleep 600`;

/** The zombie's pid and its keeper (a running process), until disposed of (the keeper killed, and the zombie with it). */
export async function startZombie(): Promise<{ zombiePid: number; keeper: ChildHandle } & AsyncDisposable> {
  const keeper = await spawnChild({ argv: ["sh", "-c", KEEPER], stdin: "ignore" });
  const dispose = async () => {
    keeper.kill("SIGKILL");
    await keeper.exited;
  };
  try {
    let text = "";
    for await (const chunk of keeper.stdout!) {
      text += new TextDecoder().decode(chunk);
      if (text.includes("\n")) break;
    }
    const zombiePid = Number(text.split("\n")[0]!.trim());
    const deadline = Date.now() + 10_000;
    while (processState(zombiePid).state !== "zombie" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return { zombiePid, keeper, [Symbol.asyncDispose]: dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
