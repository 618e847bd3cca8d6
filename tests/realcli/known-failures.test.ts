/** The known-failure helper: passes stay passes, known failures must keep failing the same way. */
import { describe, expect, test } from "bun:test";
import { assertOutcome, knownFailure } from "./known-failures.ts";

knownFailure("fake-cli", "resume", /resume "transcript"/, "upstream has no session flag");

describe("assertOutcome", () => {
  test("a scenario without a known failure must have no problems", () => {
    expect(() => assertOutcome("fake-cli", "text", { problems: [], details: "" })).not.toThrow();
    expect(() => assertOutcome("fake-cli", "text", { problems: ["run did not succeed"], details: "trace" })).toThrow(/run did not succeed[\s\S]*trace/);
  });
  test("a known failure must still fail with its signature", () => {
    expect(() => assertOutcome("fake-cli", "resume", { problems: ['start says resume "transcript"'], details: "" })).not.toThrow();
    expect(() => assertOutcome("fake-cli", "resume", { problems: [], details: "" })).toThrow(/now PASSES/);
    expect(() => assertOutcome("fake-cli", "resume", { problems: ["od exited 1"], details: "" })).toThrow(/fails differently/);
  });
});
