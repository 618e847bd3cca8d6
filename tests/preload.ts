/**
 * Hermetic test environment, loaded by bunfig before any test file (and so before any server module).
 * Points HOME and the data dir at a fresh temp folder, drops every provider credential of the developer's
 * shell, and pins locale-ish settings, so detection and runs never see a real login or a real config.
 */
import { afterAll } from "bun:test";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = mkdtempSync(join(tmpdir(), "od-test-home-"));
mkdirSync(join(root, "data"), { recursive: true });
// Removed once every file has run (a preload's afterAll is global): every `bun test` made one, and none was removed.
afterAll(() => {
  try {
    rmSync(root, { recursive: true, force: true });
  } catch {
    // A child still writing there (a daemon stopping): the OS's temp cleanup gets it.
  }
});

process.env.HOME = root;
process.env.USERPROFILE = root;
process.env.XDG_CONFIG_HOME = join(root, ".config");
process.env.XDG_DATA_HOME = join(root, ".local", "share");
process.env.XDG_CACHE_HOME = join(root, ".cache");
process.env.OD_DATA_DIR = join(root, "data");
process.env.TZ = "UTC";
process.env.NO_COLOR = "1";

const CREDENTIAL_PATTERN = /(_API_KEY|_AUTH_TOKEN|_ACCESS_TOKEN|_SECRET)$/;
for (const key of Object.keys(process.env)) {
  if (CREDENTIAL_PATTERN.test(key)) delete process.env[key];
}
for (const key of ["OD_TOKEN", "OD_AGENT_PROFILES_CONFIG", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "DSH_HOME", "DSH_BIN"]) {
  delete process.env[key];
}

