/**
 * The kind of `diagnostic` a run's history carries where it leaves output out (`GET /api/runs/:id/history` of a run
 * larger than a history holds; its `detail` is an OutputTruncatedDetail, contracts/runs.ts). A plain module, without
 * zod: the page reads it without building the run schemas.
 */
import type { OutputTruncatedDetail } from "./runs.ts";

export const OUTPUT_TRUNCATED = "output_truncated";

/** The sentence the page shows where the cut is. */
export function outputTruncatedMessage(detail: OutputTruncatedDetail): string {
  const count = (n: number) => n.toLocaleString("en");
  return `This answer is too long to show whole: ${count(detail.omittedChars)} of its ${count(detail.totalChars)} characters and the thinking, tool input and raw output after them are left out here.`;
}
