/**
 * What a benchmark reports: one figure per measured quantity (od's value, the baseline's, both as min/median/max over
 * interleaved repetitions, the quantity the target judges and, where one is measured, the same quantity for its
 * floor), and the one summary table `npm run bench` ends with.
 * Pure: no I/O here (see report.ts).
 */
import { z } from "zod";
import { summarize, type Stats } from "./stats.ts";

const StatsSchema = z.object({ min: z.number(), median: z.number(), max: z.number(), n: z.number().int().positive() });

/**
 * A target on the judged quantity; the verdict compares the judged median with it. With `overFloor`, the target is on
 * od's margin over its floor instead (od's judged quantity minus the floor's, round by round): a bound on what od's
 * own code adds to the least program that does the same work.
 */
const TargetSchema = z.object({ op: z.enum(["<=", ">="]), value: z.number(), unit: z.string(), text: z.string(), overFloor: z.boolean().optional() });

/**
 * The judged quantity of the least program that does the same work on the same runtime (a compiled Bun relay of the
 * same CLI, a server on od's libraries without od's code), measured in the same rounds: what no code of od's can go
 * below. A target the floor misses too cannot be met by changing od.
 */
const FloorSchema = z.object({ what: z.string(), judged: StatsSchema });

export const FigureSchema = z.object({
  /** Stable id, e.g. `run.short`. */
  id: z.string(),
  /** What the figure is, for the table. */
  title: z.string(),
  /** Unit of `od` and `baseline`. */
  unit: z.string(),
  od: StatsSchema,
  baseline: StatsSchema.optional(),
  /** od over its baseline, round by round (each round's pair ran back to back). */
  ratio: StatsSchema.optional(),
  /** The per-repetition quantity the target is about (od − baseline, a ratio, a peak…), in `target.unit`. */
  judged: StatsSchema,
  target: TargetSchema,
  floor: FloorSchema.optional(),
  /** od's judged quantity minus its floor's, round by round: what must shrink where the floor misses the target too. */
  margin: StatsSchema.optional(),
}).refine((figure) => !figure.target.overFloor || figure.margin !== undefined, { message: "a target over the floor needs the floor's rounds" });

export type Figure = z.infer<typeof FigureSchema>;
export type Target = Figure["target"];
/** A benchmark that could not produce its figures (it crashed or exited non-zero). */
export type BenchFailure = { bench: string; message: string };
export type Verdict = { ok: boolean; text: string };

/** Whether `value` meets `target`. */
function meets(value: number, target: Target): boolean {
  return target.op === "<=" ? value <= target.value : value >= target.value;
}

/** The median the verdict judges: the judged quantity's, or od's margin over its floor for an `overFloor` target. */
function judgedMedian(figure: Pick<Figure, "judged" | "target" | "margin">): number {
  return figure.target.overFloor ? figure.margin!.median : figure.judged.median;
}

/** Judged on the median over the repetitions; a miss says by how much. */
export function verdictOf(figure: Pick<Figure, "judged" | "target" | "margin">): Verdict {
  const { target } = figure;
  const value = judgedMedian(figure);
  const ok = meets(value, target);
  if (ok) return { ok, text: `ok (${formatValue(value, target.unit)})` };
  const by = Math.abs(value - target.value);
  return { ok, text: `MISS (${formatValue(value, target.unit)}; off by ${formatValue(by, target.unit)})` };
}

/**
 * Whether the figure's floor misses its target too (judged on the floor's median, as od is); false without a floor,
 * and for a target on od's margin over the floor (the floor is where that margin starts).
 */
export function floorMisses(figure: Pick<Figure, "floor" | "target">): boolean {
  return figure.floor !== undefined && !figure.target.overFloor && !meets(figure.floor.judged.median, figure.target);
}

/** The median of the round-by-round ratios, else od's median over the baseline's; undefined without a baseline. */
export function ratioOf(figure: Pick<Figure, "od" | "baseline" | "ratio">): number | undefined {
  if (figure.ratio) return figure.ratio.median;
  if (!figure.baseline || figure.baseline.median === 0) return undefined;
  return figure.od.median / figure.baseline.median;
}

/** The values of one figure, round by round (index i of od, baseline and judged come from round i). */
export type FigureRounds = Omit<Figure, "od" | "baseline" | "ratio" | "judged" | "floor" | "margin"> & {
  od: number[];
  baseline?: number[];
  judged: number[];
  floor?: { what: string; judged: number[] };
};

/** Summarize a figure's rounds; the ratio is taken round by round, so a slow round of the machine cancels out. */
export function figureOf(rounds: FigureRounds): Figure {
  const { od, baseline, judged, floor, ...rest } = rounds;
  if (baseline && baseline.length !== od.length) throw new Error(`${rounds.id}: ${od.length} od rounds but ${baseline.length} baseline rounds`);
  if (floor && floor.judged.length !== od.length) throw new Error(`${rounds.id}: ${od.length} od rounds but ${floor.judged.length} floor rounds`);
  return {
    ...rest,
    od: summarize(od),
    ...(baseline ? { baseline: summarize(baseline), ratio: summarize(od.map((value, i) => value / baseline[i]!)) } : {}),
    judged: summarize(judged),
    ...(floor ? { floor: { what: floor.what, judged: summarize(floor.judged) }, margin: summarize(judged.map((value, i) => value - floor.judged[i]!)) } : {}),
  };
}

/** A number with as many digits as its size deserves, then its unit ("×" and "%" stick to the number). */
export function formatValue(value: number, unit: string): string {
  const size = Math.abs(value);
  const digits = size >= 100 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : size === 0 ? 0 : 3;
  const text = value.toFixed(digits);
  if (unit === "") return text;
  return unit === "×" || unit === "%" ? `${text}${unit}` : `${text} ${unit}`;
}

/** "median (min–max) unit". */
export function formatStats(stats: Stats, unit: string): string {
  const bare = (n: number) => formatValue(n, "");
  return `${formatValue(stats.median, unit)} (${bare(stats.min)}–${bare(stats.max)})`;
}

export const SUMMARY_COLUMNS = ["figure", "od", "baseline", "ratio", "target", "verdict", "floor"] as const;

/** "median (min–max) unit, what; od's margin over it", and whether it misses the target too; "–" without a floor. */
function floorCell(figure: Figure): string {
  if (!figure.floor) return "–";
  const { unit } = figure.target;
  const margin = figure.margin ? `; od ${figure.margin.median >= 0 ? `+${formatValue(figure.margin.median, unit)} over` : `${formatValue(-figure.margin.median, unit)} under`} it` : "";
  const text = `${formatStats(figure.floor.judged, unit)}, ${figure.floor.what}${margin}`;
  return floorMisses(figure) ? `${text}: misses the target too` : text;
}

/** One row per figure, then one per failed benchmark. */
export function summaryRows(figures: readonly Figure[], failures: readonly BenchFailure[] = []): string[][] {
  const rows = figures.map((figure) => {
    const ratio = ratioOf(figure);
    return [
      figure.title,
      formatStats(figure.od, figure.unit),
      figure.baseline ? formatStats(figure.baseline, figure.unit) : "–",
      ratio === undefined ? "–" : formatValue(ratio, "×"),
      figure.target.text,
      verdictOf(figure).text,
      floorCell(figure),
    ];
  });
  for (const failure of failures) rows.push([`${failure.bench}: ${failure.message}`, "–", "–", "–", "–", "FAILED (no figures)", "–"]);
  return rows;
}

/** The summary as a Markdown table (it reads in a terminal and pastes into an issue), plus a last line with the count. */
export function formatSummary(figures: readonly Figure[], failures: readonly BenchFailure[] = []): string {
  const rows = [[...SUMMARY_COLUMNS], ...summaryRows(figures, failures)];
  const widths = SUMMARY_COLUMNS.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  const rule = `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`;
  const missed = figures.filter((figure) => !verdictOf(figure).ok);
  const belowFloor = missed.filter(floorMisses).length;
  const missedText = missed.length ? `, ${missed.length} missed${belowFloor ? ` (in ${belowFloor} the floor misses too)` : ""}` : "";
  const tail = `${figures.length - missed.length} of ${figures.length} targets met${missedText}${failures.length ? `, ${failures.length} benchmark(s) failed` : ""}`;
  return [line(rows[0]!), rule, ...rows.slice(1).map(line), "", tail].join("\n");
}

/** Non-zero when any target is missed, any benchmark failed, or nothing was measured at all. */
export function summaryExitCode(figures: readonly Figure[], failures: readonly BenchFailure[] = []): number {
  if (failures.length > 0 || figures.length === 0) return 1;
  return figures.every((figure) => verdictOf(figure).ok) ? 0 : 1;
}

/** Parse the JSON lines benchmarks append to the results file; a malformed line is an error, never a skipped figure. */
export function parseFigureLines(text: string): Figure[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => FigureSchema.parse(JSON.parse(line)));
}
