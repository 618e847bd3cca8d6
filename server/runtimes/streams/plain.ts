/**
 * `plain`: CLIs without a structured stream. Every decoded stdout chunk is a text delta, verbatim. Artifacts are
 * found in those deltas as they stream and written at completion (ArtifactSpool in artifacts.ts), not here.
 */
import type { AgentEvent } from "../../contracts/events.ts";
import type { ParserContext, StreamParser } from "./types.ts";

/** Creates a parser that turns text chunks (not lines) into `text_delta` events. */
export function createPlainParser(_ctx: ParserContext = {}): StreamParser {
  return {
    push(chunk: string): AgentEvent[] {
      return chunk === "" ? [] : [{ type: "text_delta", delta: chunk }];
    },
    end() {
      return [];
    },
  };
}
