import { expect, test } from "bun:test";
import { folderLiterals, scrubOutput } from "./scrub.ts";

test("paths, ids, times, durations and ports become stable placeholders", () => {
  const raw = [
    '{"cwd":"/tmp/od-rec-1/project","home":"/tmp/od-rec-1/home/.x","tmp":"/tmp/od-rec-1/t"}',
    '{"session_id":"0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","again":"0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","other":"11111111-2222-3333-4444-555555555555"}',
    '{"sessionID":"ses_3f2a9c1b7e","part":"prt_a1b2c3d4","type":"tool_result","call_id":"x"}',
    '{"timestamp":"2026-12-01T10:11:12.345Z","time":{"start":1796207918123,"end":1796207919000},"created":1796207918}',
    '{"duration_ms":2345,"duration_api_ms":17,"retryDelayMs":12,"input_tokens":42}',
    '{"url":"http://127.0.0.1:40759/v1","sock":"/tmp/cc-socks/12345.sock"}',
    '{"date":"Wed, 02 Dec 2026 10:42:21 GMT","title":"tmp/od-rec-1/project/a.txt"}',
    '{"memory":"<HOME>/.claude/projects/-tmp-od-rec-1-project/memory/"}',
  ].join("\n");
  const literals = folderLiterals({ "<CWD>": "/tmp/od-rec-1/project", "<HOME>": "/tmp/od-rec-1/home", "<TMP>": "/tmp/od-rec-1" });
  expect(scrubOutput(raw, literals).split("\n")).toEqual([
    '{"cwd":"<CWD>","home":"<HOME>/.x","tmp":"<TMP>/t"}',
    '{"session_id":"<UUID-1>","again":"<UUID-1>","other":"<UUID-2>"}',
    '{"sessionID":"<ses-1>","part":"<prt-1>","type":"tool_result","call_id":"x"}',
    '{"timestamp":"<TIME>","time":{"start":1700000000000,"end":1700000000000},"created":1700000000}',
    '{"duration_ms":100,"duration_api_ms":100,"retryDelayMs":100,"input_tokens":42}',
    '{"url":"http://127.0.0.1:<PORT>/v1","sock":"/tmp/cc-socks/<PID>.sock"}',
    '{"date":"<HTTP-DATE>","title":"<CWD>/a.txt"}',
    '{"memory":"<HOME>/.claude/projects/<CWD-ENCODED>/memory/"}',
  ]);
});
