// The benchmark harness's statistics and its interleaving of od with its baseline.
import { describe, expect, test } from "bun:test";
import { interleaved } from "../../bench/support/process.ts";
import { median, percentile, summarize } from "../../bench/support/stats.ts";

describe("summarize", () => {
  test("min, median and max over the repetitions, whatever their order", () => {
    expect(summarize([30, 10, 20, 50, 40])).toEqual({ min: 10, median: 30, max: 50, n: 5 });
  });

  test("the median of an even count is the mean of the middle two", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  test("no values, or a NaN among them, is an error rather than a figure", () => {
    expect(() => summarize([])).toThrow();
    expect(() => summarize([1, Number.NaN])).toThrow();
  });
});

describe("percentile", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted on purpose

  test("nearest rank: p99 of 1..100 is 99, p50 is 50, p100 the maximum", () => {
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 100)).toBe(100);
  });

  test("one slow event in a hundred is the p100, not the p99", () => {
    expect(percentile([...Array(99).fill(1), 500], 99)).toBe(1);
  });
});

describe("interleaved", () => {
  test("warms every side up once, then rotates their order each round, results paired by round", async () => {
    const calls: string[] = [];
    let tick = 0;
    const side = (name: string) => async () => {
      calls.push(name);
      return `${name}${tick++}`;
    };
    const results = await interleaved(3, { od: side("od"), baseline: side("baseline") });
    expect(calls).toEqual(["od", "baseline", "od", "baseline", "baseline", "od", "od", "baseline"]);
    expect(results).toEqual({ od: ["od2", "od5", "od6"], baseline: ["baseline3", "baseline4", "baseline7"] });
  });

  test("with three sides or more, no side runs twice in a row and each takes every place in the order", async () => {
    const calls: string[] = [];
    const side = (name: string) => async () => void calls.push(name);
    await interleaved(6, { cli: side("cli"), od: side("od"), relay: side("relay") });
    const timed = calls.slice(3);
    expect(timed.filter((name, i) => name === timed[i - 1])).toEqual([]);
    const rounds = [0, 1, 2, 3, 4, 5].map((round) => timed.slice(round * 3, round * 3 + 3));
    for (const name of ["cli", "od", "relay"]) {
      expect(rounds.map((order) => order.indexOf(name)).sort()).toEqual([0, 0, 1, 1, 2, 2]);
    }
  });
});
