/** Summary statistics over repeated measurements. Pure. */

/** min / median / max of one figure over its repetitions (n of them). */
export type Stats = { min: number; median: number; max: number; n: number };

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The nearest-rank percentile (p in 0..100): the smallest value with at least p % of the values at or below it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error("percentile of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(values: readonly number[]): Stats {
  if (values.length === 0) throw new Error("no values to summarize");
  if (values.some((v) => !Number.isFinite(v))) throw new Error(`non-finite value among ${values.join(", ")}`);
  return { min: Math.min(...values), median: median(values), max: Math.max(...values), n: values.length };
}
