/** NonAsciiFinder must find exactly what a byte-by-byte scan finds, at every alignment of the underlying buffer. */
import { expect, test } from "bun:test";
import { NonAsciiFinder } from "../../../server/runtimes/streams/non-ascii.ts";

function naive(bytes: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) if (bytes[i]! >= 0x80) return i;
  return -1;
}

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

test("finds the first non-ASCII byte of any range, at any byte offset of the buffer", () => {
  const next = random(7);
  const buffer = new Uint8Array(256);
  for (let trial = 0; trial < 5000; trial++) {
    buffer.fill(0x61);
    const highBytes = Math.floor(next() * 4);
    for (let k = 0; k < highBytes; k++) buffer[Math.floor(next() * buffer.length)] = 0x80 + Math.floor(next() * 128);
    const offset = Math.floor(next() * 8);
    const bytes = buffer.subarray(offset, offset + Math.floor(next() * (buffer.length - offset)));
    const finder = new NonAsciiFinder(bytes);
    const from = Math.floor(next() * (bytes.length + 1));
    const to = from + Math.floor(next() * (bytes.length - from + 1));
    expect({ trial, found: finder.indexOf(from, to) }).toEqual({ trial, found: naive(bytes, from, to) });
  }
});

test("empty and tiny arrays", () => {
  expect(new NonAsciiFinder(new Uint8Array(0)).indexOf(0, 0)).toBe(-1);
  const three = new Uint8Array([0x41, 0x80, 0x41, 0x41]).subarray(1, 4);
  expect(new NonAsciiFinder(three).indexOf(0, 3)).toBe(0);
  expect(new NonAsciiFinder(three).indexOf(1, 3)).toBe(-1);
});
