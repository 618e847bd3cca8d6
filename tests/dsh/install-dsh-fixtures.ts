/**
 * Fake Node/DSH/pnpm artifacts in the layout install-dsh.sh documents, a SHA256SUMS, and a loopback file server
 * that counts requests. The fake `node` answers `--version` itself and hands everything else to a real JS runtime.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { sha256Hex } from "../../server/dsh/manifest.ts";
import { DSH_VERSION_POLICY as P } from "../../server/dsh/version-policy.ts";

export const PLATFORM = "linux-x64";
// Absolute: the launcher puts the fake node first on PATH, so a bare `node` would exec itself forever.
const realJs = spawnSync("sh", ["-c", "command -v node"], { encoding: "utf8" }).stdout.trim() || process.execPath;

function tarGz(dir: string, top: string, out: string): void {
  const r = spawnSync("tar", ["-czf", out, "-C", dir, top]);
  if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
}

/** Builds the artifacts into `dir` and returns their names. */
export function buildArtifacts(dir: string): string[] {
  const src = join(dir, "src");
  const nodeTop = `node-v${P.node}-${PLATFORM}`;
  mkdirSync(join(src, nodeTop, "bin"), { recursive: true });
  const nodeBin = join(src, nodeTop, "bin", "node");
  writeFileSync(nodeBin, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "v${P.node}"; exit 0; fi\nexec "${realJs}" "$@"\n`);
  chmodSync(nodeBin, 0o755);

  mkdirSync(join(src, "dsh", "package", "bin"), { recursive: true });
  writeFileSync(join(src, "dsh", "package", "package.json"), JSON.stringify({ name: "dsh", version: P.dsh, bin: { dsh: "bin/dsh.js" } }));
  writeFileSync(
    join(src, "dsh", "package", "bin", "dsh.js"),
    `const fs = require("node:fs");
const args = process.argv.slice(2);
if (args[0] === "--version") { console.log("dsh ${P.dsh}"); process.exit(0); }
if (args[0] === "web" && process.env.FAKE_DSH_WEB_MARKER) { fs.writeFileSync(process.env.FAKE_DSH_WEB_MARKER, "opened"); process.exit(0); }
process.exit(1);
`,
  );
  mkdirSync(join(src, "pnpm", "package", "bin"), { recursive: true });
  writeFileSync(join(src, "pnpm", "package", "package.json"), JSON.stringify({ name: "pnpm", version: P.pnpm, bin: { pnpm: "bin/pnpm.cjs" } }));
  writeFileSync(join(src, "pnpm", "package", "bin", "pnpm.cjs"), `console.log("${P.pnpm}");\n`);

  const names = [`${nodeTop}.tar.gz`, `dsh-${P.dsh}.tgz`, `pnpm-${P.pnpm}.tgz`];
  tarGz(src, nodeTop, join(dir, names[0] as string));
  tarGz(join(src, "dsh"), "package", join(dir, names[1] as string));
  tarGz(join(src, "pnpm"), "package", join(dir, names[2] as string));
  writeSums(dir, names);
  return names;
}

export function writeSums(dir: string, names: string[], override: Record<string, string> = {}): void {
  const lines = names.map((name) => `${override[name] ?? sha256Hex(readFileSync(join(dir, name)))}  ${name}`);
  writeFileSync(join(dir, "SHA256SUMS"), `${lines.join("\n")}\n`);
}

/** Serves `dir` on 127.0.0.1:0; `requests` lists every path asked for. */
export async function serveDir(dir: string) {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const name = (req.url ?? "/").split("?")[0]?.replace(/^\/+/, "") ?? "";
    requests.push(name);
    try {
      if (name.includes("/") || name === "") throw new Error("bad path");
      const body = readFileSync(join(dir, name));
      res.writeHead(200, { "content-length": body.length });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
