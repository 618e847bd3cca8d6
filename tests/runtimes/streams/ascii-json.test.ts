/**
 * The ASCII rewrite must parse to exactly what the original lines parse to, map line boundaries back exactly, and
 * refuse what it cannot reproduce (invalid UTF-8) or what does not pay (dense non-ASCII text).
 */
import { describe, expect, test } from "bun:test";
import { AsciiJsonRewriter, decodeUtf8 } from "../../../server/runtimes/streams/ascii-json.ts";
import { NonAsciiFinder } from "../../../server/runtimes/streams/non-ascii.ts";

const enc = new TextEncoder();
const SAMPLES = ["·", "é", "—", "→", "世界", "😀", "\u2028", "\ufeff", "\uffff", "𝄞 clef", "ñandú"];

function rewrite(bytes: Uint8Array, start = 0, end = bytes.length) {
  const rewriter = new AsciiJsonRewriter();
  const result = rewriter.rewrite(bytes, start, end, new NonAsciiFinder(bytes));
  return { rewriter, result, text: result && new TextDecoder().decode(result.bytes.subarray(0, result.length)) };
}

/** Start offsets of every line of `bytes[start, end)`. */
function lineStarts(bytes: Uint8Array, start: number, end: number): number[] {
  const starts = [start];
  for (let i = start; i < end; i++) if (bytes[i] === 0x0a && i + 1 < end) starts.push(i + 1);
  return starts;
}

describe("ASCII JSON rewrite", () => {
  test("every line parses to the value the original line parses to, and boundaries map back", () => {
    const lines = Array.from({ length: 200 }, (_, n) => {
      const sample = SAMPLES[n % SAMPLES.length]!;
      return n % 10 === 0 ? JSON.stringify({ n, text: `say ${sample} twice: ${sample}`, [`key ${sample}`]: [sample] }) : JSON.stringify({ n, plain: "words ".repeat(20) });
    });
    const source = enc.encode(`${lines.join("\n")}\n`);
    const { rewriter, result, text } = rewrite(source);
    expect(result).toBeDefined();
    expect(/^[\x00-\x7f]*$/.test(text!)).toBe(true);
    expect(text!.split("\n").filter((l) => l).map((l) => JSON.parse(l))).toEqual(lines.map((l) => JSON.parse(l)));
    const outStarts = lineStarts(result!.bytes, 0, result!.length);
    expect(outStarts.map((o) => rewriter.sourceOffset(o))).toEqual(lineStarts(source, 0, source.length));
    expect(rewriter.sourceOffset(result!.length)).toBe(source.length);
  });

  test("a range inside the array maps back to its own offsets", () => {
    const source = enc.encode('{"skip":"é"}\n{"a":"·"}\n{"b":"😀"}\n{"c":1}\n');
    const start = source.indexOf(0x0a) + 1;
    const { rewriter, result, text } = rewrite(source, start, source.length);
    expect(text).toBe('{"a":"\\u00b7"}\n{"b":"\\ud83d\\ude00"}\n{"c":1}\n');
    expect(lineStarts(result!.bytes, 0, result!.length).map((o) => rewriter.sourceOffset(o))).toEqual(lineStarts(source, start, source.length));
  });

  test("text that is not JSON stays not JSON", () => {
    for (const line of ["Warnung: Größe", '{"a":1}·', '{"a"·:1}', "\ufeff{\"a\":1}"]) {
      const { text } = rewrite(enc.encode(`${line}\n`));
      expect(() => JSON.parse(line)).toThrow();
      expect(() => JSON.parse(text!)).toThrow();
    }
  });

  test("invalid UTF-8 is refused, so the line path decodes it", () => {
    const cases = [[0xff], [0x80], [0xc0, 0xaf], [0xc2], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f, 0x98], [0xe2, 0x82]];
    for (const bad of cases) {
      const bytes = new Uint8Array([...enc.encode('{"a":"'), ...bad, ...enc.encode('"}\n')]);
      expect({ bad, result: rewrite(bytes).result }).toEqual({ bad, result: undefined });
    }
  });

  test("mostly non-ASCII text is refused (line by line is cheaper), a short cluster is not", () => {
    const dense = enc.encode(`${Array.from({ length: 50 }, () => JSON.stringify({ text: "你好，世界。这是一个测试。" })).join("\n")}\n`);
    expect(rewrite(dense).result).toBeUndefined();
    const cluster = enc.encode(`${JSON.stringify({ text: "🎉".repeat(40) })}\n${JSON.stringify({ text: "a".repeat(2000) })}\n`);
    expect(rewrite(cluster).result).toBeDefined();
  });

  test("decodeUtf8 accepts exactly the sequences a fatal TextDecoder decodes as one character", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const check = (bytes: number[]) => {
      const arr = new Uint8Array(bytes);
      const decoded = decodeUtf8(arr, 0, arr.length);
      let expected = -1;
      try {
        const s = fatal.decode(arr);
        const cp = s.codePointAt(0)!;
        if (cp >= 0x80 && String.fromCodePoint(cp).length === s.length) expected = (cp << 3) | arr.length;
      } catch {
        expected = -1;
      }
      expect({ bytes, decoded }).toEqual({ bytes, decoded: expected });
    };
    for (let b0 = 0x80; b0 <= 0xff; b0++) {
      for (let b1 = 0; b1 <= 0xff; b1++) {
        if (b0 < 0xe0) check([b0, b1]);
        else if (b0 < 0xf0) for (const b2 of [0x3f, 0x80, 0xbf, 0xc0]) check([b0, b1, b2]);
        else for (const b2 of [0x7f, 0x80, 0xbf]) check([b0, b1, b2, 0x80]);
      }
    }
  });
});
