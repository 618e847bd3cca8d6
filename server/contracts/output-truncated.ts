/**
 * The `diagnostic` a run's history carries where it leaves output out (`GET /api/runs/:id/history` of a run larger
 * than a history holds). A plain module, without zod: the page reads it without building the run schemas.
 */
export const OUTPUT_TRUNCATED = "output_truncated";

/** The `detail` of an `output_truncated` diagnostic. */
export type OutputTruncatedDetail = {
  /** Answer characters left out between the kept beginning and end. */
  omittedChars: number;
  /** All answer characters of the run. */
  totalChars: number;
  /** The whole answer text is on disk: `GET /api/runs/:id/output` serves it. */
  fullOutput: boolean;
};

/** The sentence the page shows where the cut is. */
export function outputTruncatedMessage(detail: OutputTruncatedDetail): string {
  const count = (n: number) => n.toLocaleString("en");
  return `This answer is too long to show whole: ${count(detail.omittedChars)} of its ${count(detail.totalChars)} characters and the thinking, tool input and raw output after them are left out here.`;
}
