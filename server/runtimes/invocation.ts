/**
 * One turn of a def, as data: the argv to spawn, how the prompt reaches the child, which reader consumes its
 * output. Pure — the run service does the spawning.
 */
import { guardsActions } from "./defs/shared.ts";
import { isStreamFormat, type StreamFormat } from "./streams/formats.ts";
import { resolveDefTransport, type EnvMap, type RuntimeAgentDef, type RuntimeBuildOptions, type RuntimeContext, type RuntimeTransport } from "./types.ts";

/** Wire formats spoken over JSON-RPC-like protocols, where a transport owns stdin and stdout. */
export const PROTOCOL_FORMATS = ["acp-json-rpc", "pi-rpc", "codex-app-server", "dsh-profile-jsonl"] as const;
export type ProtocolFormat = (typeof PROTOCOL_FORMATS)[number];

export function isProtocolFormat(format: string): format is ProtocolFormat {
  return (PROTOCOL_FORMATS as readonly string[]).includes(format);
}

/** How the prompt gets into the child. */
export type PromptDelivery =
  /** In argv (or a prompt file named in argv): the child gets /dev/null as stdin. */
  | { kind: "argv" }
  /** Raw text on stdin, then EOF. */
  | { kind: "stdin-text"; text: string }
  /** One stream-json user line; stdin stays open for mid-turn input until a clean turn end. */
  | { kind: "stdin-stream-json"; line: string }
  /** A protocol transport writes its own frames. */
  | { kind: "protocol" };

export type Reader = { kind: "lines"; streamFormat: StreamFormat; eventParser?: string } | { kind: "protocol"; format: ProtocolFormat };

export type Invocation = {
  /** Arguments after the executable. */
  args: string[];
  delivery: PromptDelivery;
  reader: Reader;
  transport: RuntimeTransport;
  /** Content of the temp prompt file for `promptViaFile` defs (written at `context.promptFilePath`). */
  promptFileContent?: string;
};

export class UnsupportedStreamFormatError extends Error {
  override name = "UnsupportedStreamFormatError";
}

/** A stream-json user message, as Claude Code (and codebuddy) read it on stdin. */
export function streamJsonUserLine(text: string): string {
  return JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text }] } });
}

/** The control request an Agent SDK client opens its session with; a CLI that needs it asks only after it. */
export const CONTROL_INITIALIZE_LINE = JSON.stringify({ type: "control_request", request_id: "od-initialize", request: { subtype: "initialize", hooks: null } });

/** Whether a run in `options`'s mode asks its questions on a control channel (so its prompt goes as stream-json). */
function asksOnControlChannel(def: RuntimeAgentDef, options: RuntimeBuildOptions): boolean {
  return def.approvalChannel === "claude-control" && guardsActions(options.permissionMode);
}

export function buildInvocation(
  def: RuntimeAgentDef,
  input: { prompt: string; imagePaths: string[]; extraAllowedDirs: string[]; options: RuntimeBuildOptions; context: RuntimeContext; env: EnvMap },
): Invocation {
  const mode = input.options.permissionMode === "restricted" ? undefined : input.options.permissionMode;
  const transport = resolveDefTransport(def, input.env, mode);
  const args = def.buildArgs(input.prompt, input.imagePaths, input.extraAllowedDirs, input.options, input.context);
  const reader = readerFor(transport);
  const delivery: PromptDelivery =
    reader.kind === "protocol"
      ? { kind: "protocol" }
      : def.promptViaStdin
        ? def.promptInputFormat === "stream-json" || asksOnControlChannel(def, input.options)
          ? {
              kind: "stdin-stream-json",
              line: def.initializesControl && asksOnControlChannel(def, input.options)
                ? `${CONTROL_INITIALIZE_LINE}\n${streamJsonUserLine(input.prompt)}`
                : streamJsonUserLine(input.prompt),
            }
          : { kind: "stdin-text", text: input.prompt }
        : { kind: "argv" };
  return {
    args,
    delivery,
    reader,
    transport,
    ...(def.promptViaFile ? { promptFileContent: input.prompt } : {}),
  };
}

/** The reader (line parser or protocol transport) that consumes a transport's output. */
export function readerFor(transport: RuntimeTransport): Reader {
  if (isProtocolFormat(transport.streamFormat)) return { kind: "protocol", format: transport.streamFormat };
  if (isStreamFormat(transport.streamFormat)) {
    return { kind: "lines", streamFormat: transport.streamFormat, ...(transport.eventParser ? { eventParser: transport.eventParser } : {}) };
  }
  throw new UnsupportedStreamFormatError(`no reader for stream format '${transport.streamFormat}'`);
}
