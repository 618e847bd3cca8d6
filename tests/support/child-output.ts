/** What a finished child printed on stdout (as text) and how it exited; its stderr is read and dropped. */
import type { ChildHandle } from "../../server/platform/process.ts";

export async function childOutput(child: ChildHandle): Promise<{ stdout: string; code: number | null }> {
  const decoder = new TextDecoder();
  let stdout = "";
  const drained = (async () => {
    for await (const _ of child.stderr);
  })();
  for await (const chunk of child.stdout) stdout += decoder.decode(chunk, { stream: true });
  await drained;
  return { stdout: stdout + decoder.decode(), code: (await child.exited).code };
}
