/**
 * Plain-stream artifact handoff: at run completion, `<artifact identifier="…" type="…" title="…">…</artifact>` blocks
 * in a plain CLI's stdout become project files (`<slug>.html|.css|.svg|.md`). Planning is pure text → plan; the
 * writer is a few lines of node:fs. Slugs keep only `[a-z0-9._-]` and never start with a dot, so an identifier like
 * `../../x` cannot leave the project folder.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { AgentEventOf } from "../../contracts/events.ts";

/** Artifact `type` attribute → file extension (seed §5.13). */
export const ARTIFACT_EXTENSIONS: Readonly<Record<string, string>> = {
  "text/html": "html",
  html: "html",
  "text/css": "css",
  css: "css",
  "image/svg+xml": "svg",
  svg: "svg",
  "text/markdown": "md",
  "text/x-markdown": "md",
  markdown: "md",
  md: "md",
};

/** One file to write. */
export type ArtifactPlan = { name: string; content: string; identifier?: string; artifactType: string; title?: string };

const BLOCK = /<artifact\b([^>]*)>([\s\S]*?)<\/artifact\s*>/gi;
const ATTRIBUTE = /([a-zA-Z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const MAX_SLUG = 80;

/** Turns an identifier into a safe file stem: lowercase `[a-z0-9._-]`, no leading dots, no `..`. */
export function slugify(identifier: string): string {
  const slug = identifier
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, MAX_SLUG)
    .replace(/[-.]+$/, "");
  return slug === "" ? "artifact" : slug;
}

/** Finds every supported artifact block and picks a collision-free file name for each. Pure. */
export function planArtifacts(text: string, taken: Iterable<string> = []): ArtifactPlan[] {
  const used = new Set([...taken].map((n) => n.toLowerCase()));
  const plans: ArtifactPlan[] = [];
  for (const match of text.matchAll(BLOCK)) {
    const attrs = parseAttributes(match[1] ?? "");
    const artifactType = (attrs.type ?? "").trim().toLowerCase();
    const ext = ARTIFACT_EXTENSIONS[artifactType];
    if (!ext) continue;
    let stem = slugify(attrs.identifier ?? attrs.title ?? "artifact");
    if (stem.endsWith(`.${ext}`)) stem = stem.slice(0, -(ext.length + 1)) || "artifact";
    const name = uniqueName(stem, ext, used);
    used.add(name.toLowerCase());
    const plan: ArtifactPlan = { name, content: bodyOf(match[2] ?? ""), artifactType };
    if (attrs.identifier !== undefined) plan.identifier = attrs.identifier;
    if (attrs.title !== undefined) plan.title = attrs.title;
    plans.push(plan);
  }
  return plans;
}

/** Writes the artifacts of `text` into `dir` (created if needed) and returns one `artifact` event per file. */
export function writeArtifacts(text: string, dir: string): AgentEventOf<"artifact">[] {
  const root = resolve(dir);
  const plans = planArtifacts(text, existsSync(root) ? readdirSync(root) : []);
  if (plans.length === 0) return [];
  mkdirSync(root, { recursive: true });
  const events: AgentEventOf<"artifact">[] = [];
  for (const plan of plans) {
    const target = join(root, plan.name);
    // Defence in depth: slugify already forbids separators and leading dots.
    if (!resolve(target).startsWith(root + sep)) continue;
    writeFileSync(target, plan.content, { flag: "wx" });
    const event: AgentEventOf<"artifact"> = { type: "artifact", source: "plain-stream", name: plan.name, path: plan.name, artifactType: plan.artifactType };
    if (plan.identifier !== undefined) event.identifier = plan.identifier;
    events.push(event);
  }
  return events;
}

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(ATTRIBUTE)) {
    const key = (m[1] ?? "").toLowerCase();
    if (!(key in attrs)) attrs[key] = m[2] ?? m[3] ?? "";
  }
  return attrs;
}

function uniqueName(stem: string, ext: string, used: Set<string>): string {
  let name = `${stem}.${ext}`;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = `${stem}-${n}.${ext}`;
  return name;
}

function bodyOf(raw: string): string {
  const trimmed = raw.replace(/^\s*\r?\n/, "").replace(/\s+$/, "");
  return `${trimmed}\n`;
}
