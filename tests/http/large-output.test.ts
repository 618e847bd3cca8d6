// Issue #17: a huge answer keeps the daemon's memory bounded and never makes its conversation unreadable. The
// stored message is a bounded folded view; the whole answer is on disk and paged by GET /api/runs/:id/output.
import { describe, expect, test } from "bun:test";
import { closeSync, openSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { OUTPUT_TRUNCATED } from "../../server/contracts/output-truncated.ts";
import type { Message } from "../../server/contracts/projects.ts";
import { OutputTruncatedDetail, RunHistoryResponse, type RunEvent } from "../../server/contracts/runs.ts";
import { Credentials } from "../../server/http/credentials.ts";
import { projectRoutes } from "../../server/http/projects.ts";
import { runRoutes } from "../../server/http/runs.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { Store } from "../../server/store/store.ts";
import { startTestApp, TEST_TOKEN, testWorktrees } from "../support/app.ts";
import { endOf, runHarness } from "../support/fake-agents.ts";
import { completeAsBeforeTextOnce } from "../support/legacy-messages.ts";
import { tempDir } from "../support/temp.ts";
import { DiskSpace } from "../../server/store/disk-space.ts";

const MB = 1024 * 1024;
/** Far below the 24+ MB answers below (sent twice, as text and events, before): a bounded message on the wire. */
const BOUNDED_BYTES = 12 * MB;

/** A plain answer of `megabytes` MB: numbered lines, so any slice of it is recognisable. */
function writeAnswer(path: string, megabytes: number): void {
  const fd = openSync(path, "w");
  try {
    for (let line = 0, written = 0; written < megabytes * MB; line++) {
      const text = `line ${line}: ${"lorem ipsum dolor sit amet ".repeat(36)}\n`;
      writeSync(fd, text);
      written += text.length;
    }
  } finally {
    closeSync(fd);
  }
}

describe("huge answers", () => {
  test("a plain run's 24 MB answer: its message is bounded and marked, the whole answer is paged from disk", async () => {
    using files = tempDir("od-large-output-");
    const answerPath = join(files.path, "answer.txt");
    writeAnswer(answerPath, 24);
    const answer = await Bun.file(answerPath).text();
    await using h = await runHarness({ defs: [getAgentDef("deepseek")! as RuntimeAgentDef], shims: { deepseek: undefined }, steps: [{ readAll: true }, { outFile: answerPath }] });
    await using t = await startTestApp({ modules: [projectRoutes(h.store, new ProjectService(h.store, h.projectDir), new Credentials(TEST_TOKEN), testWorktrees(h.store), new DiskSpace(undefined)), runRoutes(h.service)] });
    const { runId, conversationId, events } = await h.run({ agentId: "deepseek", message: "write a lot" });
    expect(endOf(events).status).toBe("succeeded");

    const res = await t.call(`/api/conversations/${conversationId}/messages`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body.length).toBeLessThan(BOUNDED_BYTES);
    const assistant = (JSON.parse(body).messages as Message[]).find((m) => m.role === "assistant")!;
    const marker = assistant.events?.find((e) => e.type === "truncated");
    expect(marker).toMatchObject({ type: "truncated", totalChars: answer.length, fullOutput: true });
    expect(assistant.text.startsWith("line 0: ")).toBe(true);
    expect(assistant.text.endsWith(answer.slice(-1000))).toBe(true);

    const whole = await t.call(`/api/runs/${runId}/output`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(whole.headers.get("x-od-total-bytes")).toBe(String(statSync(answerPath).size));
    expect(await whole.text()).toBe(answer);

    const page = await t.call(`/api/runs/${runId}/output?offset=${5 * MB}&limit=1000`);
    expect(page.headers.get("x-od-next-offset")).toBe(String(5 * MB + 1000));
    expect(await page.text()).toBe(answer.slice(5 * MB, 5 * MB + 1000));
    expect((await t.call(`/api/runs/${runId}/output?offset=-1`)).status).toBe(400);

    // Issue #34: the history the page folds is bounded too, and marks its cut with the whole answer's size on disk.
    const historyRes = await t.call(`/api/runs/${runId}/history`);
    expect(historyRes.status).toBe(200);
    const historyText = await historyRes.text();
    expect(historyText.length).toBeLessThan(BOUNDED_BYTES);
    const history = RunHistoryResponse.parse(JSON.parse(historyText)).events;
    const cut = history.find((e) => e.type === "diagnostic" && e.kind === OUTPUT_TRUNCATED);
    expect(cut).toMatchObject({ detail: { totalChars: answer.length, fullOutput: true } });
    const detail = OutputTruncatedDetail.parse((cut as Extract<RunEvent, { type: "diagnostic" }>).detail);
    expect(detail.omittedChars).toBeGreaterThan(answer.length - 4_000_000 - 1);
    expect(history.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
  }, 60_000);

  test("a run whose answer fits its message has no separate output", async () => {
    await using h = await runHarness({ defs: [getAgentDef("deepseek")! as RuntimeAgentDef], shims: { deepseek: undefined }, steps: [{ readAll: true }, { out: "short" }] });
    await using t = await startTestApp({ modules: [runRoutes(h.service)] });
    const { runId } = await h.run({ agentId: "deepseek", message: "hi" });
    const res = await t.call(`/api/runs/${runId}/output`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("OUTPUT_NOT_FOUND");
  }, 30_000);

  test("a message stored whole before answers were bounded (40 MB) still opens: 200, bounded, marked", async () => {
    using dir = tempDir("od-large-message-");
    const store = Store.open(join(dir.path, "od.db"), openBunSqlite);
    using _closeStore = { [Symbol.dispose]: () => store.close() };
    const project = store.projects.create("p", dir.path);
    const conversation = store.conversations.create(project.id, "huge");
    const text = `BEGIN${"x".repeat(40 * MB)}END`;
    const id = store.messages.add({ conversationId: conversation.id, role: "assistant", text: "" });
    completeAsBeforeTextOnce(store, id, { text, events: [{ type: "text", text }] });
    await using t = await startTestApp({ dataDir: dir.path, modules: [projectRoutes(store, new ProjectService(store, dir.path), new Credentials(TEST_TOKEN), testWorktrees(store), new DiskSpace(undefined))] });

    const res = await t.call(`/api/conversations/${conversation.id}/messages`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body.length).toBeLessThan(BOUNDED_BYTES);
    const [message] = JSON.parse(body).messages as Message[];
    expect(message!.text.startsWith("BEGIN")).toBe(true);
    expect(message!.text.endsWith("xEND")).toBe(true);
    expect(message!.events?.find((e) => e.type === "truncated")).toMatchObject({ totalChars: text.length, fullOutput: false });
  }, 60_000);
});
