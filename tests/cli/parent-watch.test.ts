// Issue #17: `od serve --exit-with-parent` stops when the process that started it exits (npm start).
import { expect, test } from "bun:test";
import { watchParentExit } from "../../server/cli/parent-watch.ts";

test("the watch fires once, when the parent pid changes (re-parented to init), and not before", async () => {
  let parent = 4242;
  let fired = 0;
  const stop = watchParentExit(() => fired++, { intervalMs: 5, parentPid: () => parent });
  try {
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toBe(0);
    parent = 1;
    const deadline = Date.now() + 5000;
    while (fired === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toBe(1);
  } finally {
    stop();
  }
});
