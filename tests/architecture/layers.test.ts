/**
 * The shape of `server/`, checked on the source: no import circle anywhere, and the domain (runs, projects, agents,
 * machines, inputs, storage, …) never reaches up into the HTTP layer or the CLI: it throws OdErrors (server/errors.ts)
 * and the layers above turn them into answers.
 */
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { readFileSync } from "node:fs";
import { importCircles, importGraph } from "../support/import-graph.ts";

const ROOT = resolve(import.meta.dir, "../..");
const graph = importGraph(ROOT);

/** The layers above the domain: the entry points, the CLI, the HTTP app and its routes. */
const TOP = [/^server\/http\//, /^server\/cli\//, /^server\/(app|main|daemon|engine|engine-loader|early|embedded|binary|services|deno)\.ts$/];
const isTop = (file: string) => TOP.some((pattern) => pattern.test(file));

describe("server/ layers", () => {
  test("the graph is read (a broken reader would pass every rule below)", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get("server/runs/run-service.ts")?.length).toBeGreaterThan(10);
    expect(importCircles(new Map([["a", ["b"]], ["b", ["a"]], ["c", ["a"]]]))).toEqual([["a", "b"]]);
  });

  test("no import circle", () => {
    expect(importCircles(graph)).toEqual([]);
  });

  test("no file is over 400 lines: a file that grows past it has more than one job", () => {
    const long = [...graph.keys()].map((file) => [file, readFileSync(`${ROOT}/${file}`, "utf8").split("\n").length - 1] as const).filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });

  test("nothing below the HTTP layer and the CLI imports them", () => {
    const upward = [...graph].flatMap(([file, targets]) => (isTop(file) ? [] : targets.filter(isTop).map((target) => `${file} → ${target}`)));
    expect(upward).toEqual([]);
  });
});

describe("one machine contract (issue #36)", () => {
  test("server/machines/ imports nothing of runs, projects or runtimes: they build on it", () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      file.startsWith("server/machines/") ? targets.filter((target) => /^server\/(runs|projects|runtimes)\//.test(target)).map((target) => `${file} → ${target}`) : [],
    );
    expect(upward).toEqual([]);
  });

  test("nothing outside server/machines/ asks whether a project is remote", () => {
    const asking = /\b(isRemoteUrl|remoteLocationOf|RemoteLocation)\b|if \(remote\b/;
    const found = [...graph.keys()].filter((file) => !file.startsWith("server/machines/")).filter((file) => asking.test(readFileSync(`${ROOT}/${file}`, "utf8")));
    expect(found).toEqual([]);
  });
});
