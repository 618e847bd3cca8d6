// What `npm run bench` concludes from the figures: verdicts, the one summary table, and its exit code.
import { describe, expect, test } from "bun:test";
import { figureOf, floorMisses, formatSummary, formatValue, parseFigureLines, ratioOf, SUMMARY_COLUMNS, summaryExitCode, verdictOf, type Figure } from "../../bench/support/figures.ts";

const stats = (min: number, median: number, max: number) => ({ min, median, max, n: 5 });

/** od run's fixed cost: 250 ms over a 20 ms CLI, judged against ≤ +30 ms. */
const missed: Figure = {
  id: "run.short",
  title: "od run, 20-line CLI run, vs the CLI alone",
  unit: "ms",
  od: stats(260, 270, 300),
  baseline: stats(15, 20, 25),
  judged: stats(240, 250, 280),
  target: { op: "<=", value: 30, unit: "ms", text: "≤ +30 ms over the CLI" },
};

/** Parse throughput at 80 % of the baseline, judged against ≥ 70 %. */
const met: Figure = {
  id: "parse.throughput",
  title: "od parse claude-stream-json 50 MiB → /dev/null",
  unit: "MB/s",
  od: stats(70, 80, 90),
  baseline: stats(95, 100, 105),
  judged: stats(72, 80, 88),
  target: { op: ">=", value: 70, unit: "%", text: "≥ 70 % of read + JSON.parse" },
};

describe("verdictOf", () => {
  test("an upper bound exceeded by the median is a miss that says by how much", () => {
    expect(verdictOf(missed)).toEqual({ ok: false, text: "MISS (250 ms; off by 220 ms)" });
  });

  test("a lower bound reached by the median is met", () => {
    expect(verdictOf(met)).toEqual({ ok: true, text: "ok (80.0%)" });
  });

  test("the median is judged, not the best or the worst round", () => {
    expect(verdictOf({ judged: stats(10, 40, 50), target: missed.target }).ok).toBe(false);
    expect(verdictOf({ judged: stats(10, 20, 500), target: missed.target }).ok).toBe(true);
    expect(verdictOf({ judged: stats(50, 69.9, 100), target: met.target }).ok).toBe(false);
  });

  test("a value exactly on the target meets it", () => {
    expect(verdictOf({ judged: stats(30, 30, 30), target: missed.target }).ok).toBe(true);
  });
});

/** The least relay of the same CLI, 24 ms over it: within the ≤ +30 ms target that od misses. */
const relayFloor = { what: "bench/fixtures/line-relay.ts", judged: stats(19, 24, 32) };

describe("floorMisses", () => {
  test("a floor whose median misses the target too: no change to od can meet it", () => {
    expect(floorMisses({ ...missed, floor: { ...relayFloor, judged: stats(29, 31, 40) } })).toBe(true);
  });

  test("a floor within the target, judged on its median like od; no floor, no claim", () => {
    expect(floorMisses({ ...missed, floor: relayFloor })).toBe(false);
    expect(floorMisses({ ...met, floor: { what: "x", judged: stats(60, 75, 80) } })).toBe(false);
    expect(floorMisses({ ...met, floor: { what: "x", judged: stats(60, 65, 80) } })).toBe(true);
    expect(floorMisses(missed)).toBe(false);
  });
});

/** od's short run against its floor (the recording relay), judged on od's margin over it: ≤ the floor + 8 ms. */
const overFloor: Figure = {
  ...missed,
  judged: stats(40, 45, 60),
  target: { op: "<=", value: 8, unit: "ms", text: "≤ the recording relay + 8 ms", overFloor: true },
  floor: { what: "bench/fixtures/recording-relay.ts", judged: stats(35, 39, 50) },
  margin: stats(2, 6, 12),
};

describe("a target on od's margin over its floor", () => {
  test("is judged on the margin's median, round by round, not on the judged quantity", () => {
    expect(verdictOf(overFloor)).toEqual({ ok: true, text: "ok (6.00 ms)" });
    expect(verdictOf({ ...overFloor, margin: stats(5, 9, 10) })).toEqual({ ok: false, text: "MISS (9.00 ms; off by 1.00 ms)" });
  });

  test("its floor is where the margin starts, so it never 'misses the target too'", () => {
    expect(floorMisses(overFloor)).toBe(false);
  });

  test("needs the floor's rounds: a figure without the margin is refused", () => {
    const { margin: _, ...withoutMargin } = overFloor;
    expect(() => parseFigureLines(`${JSON.stringify(withoutMargin)}\n`)).toThrow();
    expect(parseFigureLines(`${JSON.stringify(overFloor)}\n`)).toEqual([overFloor]);
  });
});

describe("ratioOf", () => {
  test("od's median over the baseline's median; none without a baseline", () => {
    expect(ratioOf(missed)).toBe(13.5);
    expect(ratioOf({ od: stats(1, 2, 3) })).toBeUndefined();
  });

  test("the round-by-round ratio when the figure has one", () => {
    expect(ratioOf({ ...missed, ratio: stats(9, 10, 11) })).toBe(10);
  });
});

describe("figureOf", () => {
  const rounds = { id: "x", title: "x", unit: "ms", target: missed.target };

  test("pairs od with the baseline of the same round: a slow round of the machine cancels out", () => {
    // Round 2 ran while the machine was busy: both sides tripled.
    const figure = figureOf({ ...rounds, od: [20, 60, 22], baseline: [10, 30, 10], judged: [10, 30, 12] });
    expect(figure.od).toEqual({ min: 20, median: 22, max: 60, n: 3 });
    expect(figure.baseline).toEqual({ min: 10, median: 10, max: 30, n: 3 });
    expect(figure.ratio).toEqual({ min: 2, median: 2, max: 2.2, n: 3 });
    expect(figure.judged.median).toBe(12);
  });

  test("rounds that do not pair up are an error", () => {
    expect(() => figureOf({ ...rounds, od: [1, 2], baseline: [1], judged: [0, 1] })).toThrow();
  });

  test("without a baseline there is no ratio", () => {
    expect(figureOf({ ...rounds, od: [1, 2, 3], judged: [1, 2, 3] }).ratio).toBeUndefined();
  });

  test("a floor is summarized like the judged quantity, and must have a value for every round", () => {
    const figure = figureOf({ ...rounds, od: [40, 50, 45], judged: [30, 40, 35], floor: { what: "relay", judged: [20, 25, 22] } });
    expect(figure.floor).toEqual({ what: "relay", judged: { min: 20, median: 22, max: 25, n: 3 } });
    // od's margin over the floor, round by round (10, 15, 13), not the difference of the medians (35 − 22).
    expect(figure.margin).toEqual({ min: 10, median: 13, max: 15, n: 3 });
    expect(() => figureOf({ ...rounds, od: [1, 2], judged: [0, 1], floor: { what: "relay", judged: [1] } })).toThrow();
    expect(figureOf({ ...rounds, od: [1], judged: [1] }).floor).toBeUndefined();
  });
});

describe("formatValue", () => {
  test("digits by size, units spaced except × and %", () => {
    expect(formatValue(1234.5, "ms")).toBe("1235 ms");
    expect(formatValue(12.345, "MB")).toBe("12.3 MB");
    expect(formatValue(2.5, "×")).toBe("2.50×");
    expect(formatValue(0.0456, "s")).toBe("0.046 s");
  });
});

describe("formatSummary", () => {
  test("one table: the seven columns, a row per figure with median (min–max), ratio, target, verdict and floor", () => {
    const lines = formatSummary([{ ...missed, floor: relayFloor }, met]).split("\n");
    expect(lines[0]!.split("|").map((cell) => cell.trim()).filter(Boolean)).toEqual(["figure", "od", "baseline", "ratio", "target", "verdict", "floor"]);
    expect([...SUMMARY_COLUMNS]).toEqual(["figure", "od", "baseline", "ratio", "target", "verdict", "floor"]);
    const row = lines[2]!.split("|").map((cell) => cell.trim());
    expect(row.slice(1, 8)).toEqual([
      "od run, 20-line CLI run, vs the CLI alone",
      "270 ms (260–300)",
      "20.0 ms (15.0–25.0)",
      "13.5×",
      "≤ +30 ms over the CLI",
      "MISS (250 ms; off by 220 ms)",
      "24.0 ms (19.0–32.0), bench/fixtures/line-relay.ts",
    ]);
    expect(lines[3]!.split("|").map((cell) => cell.trim())[7]).toBe("–");
    expect(lines.at(-1)).toBe("1 of 2 targets met, 1 missed");
  });

  test("a floor that misses the target too says so in its cell and in the count of misses", () => {
    const belowFloor = { ...missed, floor: { ...relayFloor, judged: stats(33, 36, 41) } };
    const lines = formatSummary([belowFloor, missed, met]).split("\n");
    expect(lines[2]).toContain("36.0 ms (33.0–41.0), bench/fixtures/line-relay.ts: misses the target too");
    expect(lines.at(-1)).toBe("1 of 3 targets met, 2 missed (in 1 the floor misses too)");
  });

  test("the floor's cell says od's margin over it where the figure has one", () => {
    const lines = formatSummary([overFloor]).split("\n");
    expect(lines[2]).toContain("39.0 ms (35.0–50.0), bench/fixtures/recording-relay.ts; od +6.00 ms over it");
    expect(lines.at(-1)).toBe("1 of 1 targets met");
    // Below its floor (frames per second against the least page): "under".
    const fps = { ...met, unit: "fps", target: { op: ">=" as const, value: 50, unit: "fps", text: "≥ 50 fps" }, floor: { what: "floor.html", judged: stats(50, 55, 58) }, margin: stats(-20, -19, -2) };
    expect(formatSummary([fps]).split("\n")[2]).toContain("55.0 fps (50.0–58.0), floor.html; od 19.0 fps under it");
  });

  test("a benchmark that failed gets a row of its own", () => {
    const text = formatSummary([met], [{ bench: "latency", message: "exited 1" }]);
    expect(text).toContain("latency: exited 1");
    expect(text).toContain("FAILED (no figures)");
    expect(text.split("\n").at(-1)).toBe("1 of 1 targets met, 1 benchmark(s) failed");
  });
});

describe("summaryExitCode", () => {
  test("zero only when every target is met and every benchmark ran", () => {
    expect(summaryExitCode([met])).toBe(0);
    expect(summaryExitCode([met, missed])).toBe(1);
    expect(summaryExitCode([met], [{ bench: "detect", message: "exited 1" }])).toBe(1);
    expect(summaryExitCode([])).toBe(1);
  });
});

describe("parseFigureLines", () => {
  test("reads back what benchmarks append, and refuses a malformed line", () => {
    const withFloor = { ...missed, floor: relayFloor };
    const text = `${JSON.stringify(withFloor)}\n\n${JSON.stringify(met)}\n`;
    expect(parseFigureLines(text)).toEqual([withFloor, met]);
    expect(() => parseFigureLines(`${JSON.stringify({ ...met, floor: { what: "x" } })}\n`)).toThrow();
    expect(() => parseFigureLines(`${JSON.stringify({ ...met, judged: undefined })}\n`)).toThrow();
  });
});
