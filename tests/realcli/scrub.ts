/**
 * Makes recorded CLI output reproducible: temp paths, ids, timestamps, durations and the fake server's port
 * become stable placeholders, so re-recording a fixture gives a reviewable diff. Pure text in, text out.
 */

/** A literal to replace, e.g. the run's project folder → `<CWD>`. Longest literals are replaced first. */
export type Literal = { value: string; placeholder: string };

/**
 * Literals for the run's folders, also without the leading slash (opencode prints root-relative titles) and
 * dash-encoded as Claude Code names its project folders (`/tmp/x/project` → `-tmp-x-project`, placeholder
 * `<CWD-ENCODED>`).
 */
export function folderLiterals(folders: Record<string, string>): Literal[] {
  return Object.entries(folders).flatMap(([placeholder, value]) => [
    { value, placeholder },
    { value: value.replace(/^\/+/, ""), placeholder },
    { value: value.replace(/[^A-Za-z0-9]/g, "-"), placeholder: placeholder.replace(/>$/, "-ENCODED>") },
  ]);
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** opencode/kilo ids (ses_, msg_, prt_) and API ids our fake or the CLI mint (toolu_, call_, resp_, …). */
const PREFIXED_ID = /\b(ses|msg|prt|call|toolu|chatcmpl|resp|rs|fc|ctc|req|srvtoolu)_(?=[A-Za-z0-9-]*\d)[A-Za-z0-9-]{4,}\b/g;
const ISO_TIME = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?\b/g;
/** Epoch seconds or milliseconds from 2023 to 2033 written as bare JSON numbers. */
const EPOCH = /(?<=[:\[,\s])1[7-9]\d{8}(?:\d{3})?(?=[,}\]\s]|$)/g;
/** `"…duration…": 123`, `"…_ms": 123`, `"…Ms": 123`, `"…latency…": 123` (run-time dependent numbers). */
const DURATION = /("[A-Za-z_]*(?:duration|latency|elapsed|_ms|Ms|ttft)[A-Za-z_]*"\s*:\s*)\d+(?:\.\d+)?/g;
const PORT = /\b(127\.0\.0\.1|localhost):\d{2,5}\b/g;
const PID_SOCKET = /cc-socks\/\d+\.sock/g;
const HTTP_DATE = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT\b/g;

/** Scrubs one fixture; ids are numbered by first appearance, so one file stays self-consistent. */
export function scrubOutput(text: string, literals: Literal[]): string {
  let out = text;
  for (const literal of [...literals].sort((a, b) => b.value.length - a.value.length)) {
    if (literal.value) out = out.split(literal.value).join(literal.placeholder);
  }
  const numbered = (label: string) => {
    const seen = new Map<string, string>();
    return (match: string) => {
      const known = seen.get(match);
      if (known) return known;
      const placeholder = `<${label}-${seen.size + 1}>`;
      seen.set(match, placeholder);
      return placeholder;
    };
  };
  const prefixed = new Map<string, (match: string) => string>();
  out = out.replace(UUID, numbered("UUID"));
  out = out.replace(PREFIXED_ID, (match: string, prefix: string) => {
    let numberer = prefixed.get(prefix);
    if (!numberer) {
      numberer = numbered(prefix);
      prefixed.set(prefix, numberer);
    }
    return numberer(match);
  });
  out = out.replace(ISO_TIME, "<TIME>");
  out = out.replace(HTTP_DATE, "<HTTP-DATE>");
  out = out.replace(EPOCH, (match) => (match.length === 13 ? "1700000000000" : "1700000000"));
  out = out.replace(DURATION, "$1100");
  out = out.replace(PORT, "$1:<PORT>");
  out = out.replace(PID_SOCKET, "cc-socks/<PID>.sock");
  return out;
}
