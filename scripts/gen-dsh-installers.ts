/**
 * Templates server/dsh/version-policy.json into the generated block of install-dsh.{sh,ps1,cmd}, so the installers
 * and the def pin the same versions. `--check` only reports drift (exit 1), for CI.
 *
 *   bun run scripts/gen-dsh-installers.ts [--check]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DSH_VERSION_POLICY } from "../server/dsh/version-policy.ts";
import { DshVersionPolicy } from "../server/dsh/version-policy-schema.ts";

const HEADER = "BEGIN GENERATED VERSION POLICY (scripts/gen-dsh-installers.ts from server/dsh/version-policy.json)";
const FOOTER = "END GENERATED VERSION POLICY";

type Flavour = { file: string; comment: string; lines: (p: DshVersionPolicy) => string[] };

export const INSTALLERS: Flavour[] = [
  {
    file: "install-dsh.sh",
    comment: "#",
    lines: (p) => [
      `OD_DSH_BOOTSTRAP_VERSION="${p.bootstrapVersion}"`,
      `OD_DSH_NODE_VERSION="${p.node}"`,
      `OD_DSH_DSH_VERSION="${p.dsh}"`,
      `OD_DSH_PNPM_VERSION="${p.pnpm}"`,
    ],
  },
  {
    file: "install-dsh.ps1",
    comment: "#",
    lines: (p) => [`$BootstrapVersion = '${p.bootstrapVersion}'`, `$NodeVersion = '${p.node}'`, `$DshVersion = '${p.dsh}'`, `$PnpmVersion = '${p.pnpm}'`],
  },
  { file: "install-dsh.cmd", comment: "rem", lines: (p) => [`set "OD_DSH_BOOTSTRAP_VERSION=${p.bootstrapVersion}"`] },
];

/** The script text with its generated block rewritten from `policy`. Throws if the markers are missing. */
export function renderInstaller(text: string, flavour: Flavour, policy: DshVersionPolicy): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const start = text.indexOf(`${flavour.comment} ${HEADER}`);
  const end = text.indexOf(`${flavour.comment} ${FOOTER}`);
  if (start === -1 || end === -1 || end < start) throw new Error(`${flavour.file}: generated-block markers missing`);
  const block = [`${flavour.comment} ${HEADER}`, ...flavour.lines(policy), ""].join(eol);
  return text.slice(0, start) + block + text.slice(end);
}

export function installerPath(file: string): string {
  return fileURLToPath(new URL(`./${file}`, import.meta.url));
}

/** Rewrites (or, with `check`, compares) every installer. Returns the files that were stale. */
export function generateInstallers(options: { check: boolean; policy?: DshVersionPolicy }): string[] {
  const stale: string[] = [];
  for (const flavour of INSTALLERS) {
    const path = installerPath(flavour.file);
    const current = readFileSync(path, "utf8");
    const next = renderInstaller(current, flavour, options.policy ?? DshVersionPolicy.parse(DSH_VERSION_POLICY));
    if (next === current) continue;
    stale.push(flavour.file);
    if (!options.check) writeFileSync(path, next);
  }
  return stale;
}

if (import.meta.main) {
  const check = process.argv.includes("--check");
  const stale = generateInstallers({ check });
  if (check && stale.length > 0) {
    console.error(`stale installer version policy in: ${stale.join(", ")} (run bun run scripts/gen-dsh-installers.ts)`);
    process.exit(1);
  }
  console.log(stale.length === 0 ? "installers up to date" : `updated ${stale.join(", ")}`);
}
