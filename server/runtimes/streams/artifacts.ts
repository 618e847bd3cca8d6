/**
 * Plain-stream artifact handoff: at run completion, `<artifact identifier="…" type="…" title="…">…</artifact>` blocks
 * in a plain CLI's stdout become project files (`<slug>.html|.css|.svg|.md`). `planArtifacts` is the pure text → plan
 * form; `ArtifactSpool` finds the same blocks while the text streams (artifact-scanner.ts) and spools each body to a
 * private temp file, so a run's or a transcript's text is never held whole; `commit` then copies the files in (or
 * `commitWith` hands them to a writer for a project on another machine).
 * Slugs keep only `[a-z0-9._-]` and never start with a dot, so an identifier like `../../x` cannot leave the project
 * folder.
 */
import { constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { AgentEventOf } from "../../contracts/events.ts";
import { BodyFile } from "./artifact-body-file.ts";
import { ArtifactScanner } from "./artifact-scanner.ts";

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
  using spool = new ArtifactSpool();
  spool.push(text);
  return spool.commit(dir);
}

/** A finished block whose body waits in a temp file. */
type SpooledArtifact = { stem: string; ext: string; file: string; identifier?: string; artifactType: string };

/**
 * Writes one artifact's body (the file `bodyFile`) as `<stem>.<ext>`, or `<stem>-<n>.<ext>` when that name is taken,
 * and resolves to the name it wrote; undefined when it wrote nothing.
 */
export type ArtifactPlacer = (artifact: { stem: string; ext: string; bodyFile: string }) => Promise<string | undefined>;

function artifactEvent(artifact: SpooledArtifact, name: string): AgentEventOf<"artifact"> {
  const event: AgentEventOf<"artifact"> = { type: "artifact", source: "plain-stream", name, path: name, artifactType: artifact.artifactType };
  if (artifact.identifier !== undefined) event.identifier = artifact.identifier;
  return event;
}

/**
 * Collects the artifacts of streaming text: `push` each piece, then `commit` them into a folder (or just dispose to
 * drop them, e.g. when the run was canceled). Memory stays bounded whatever the text's size; bodies live in a
 * private temp folder until commit and are removed on dispose.
 */
export class ArtifactSpool {
  readonly #done: SpooledArtifact[] = [];
  readonly #scanner: ArtifactScanner;
  #staging: string | undefined;
  #open: { artifact: Omit<SpooledArtifact, "file">; body: BodyFile | undefined } | undefined;

  constructor() {
    this.#scanner = new ArtifactScanner({
      open: (attributes) => this.#start(attributes),
      body: (text) => this.#open?.body?.write(text),
      close: () => this.#finish(),
      abandon: () => {
        this.#open?.body?.close();
        this.#open = undefined;
      },
    });
  }

  push(text: string): void {
    this.#scanner.push(text);
  }

  /** Ends the text and copies every complete artifact into `dir` (created if needed): one event per file. */
  commit(dir: string): AgentEventOf<"artifact">[] {
    this.#scanner.end();
    if (this.#done.length === 0) return [];
    const root = resolve(dir);
    const used = new Set((existsSync(root) ? readdirSync(root) : []).map((n) => n.toLowerCase()));
    mkdirSync(root, { recursive: true });
    const events: AgentEventOf<"artifact">[] = [];
    for (const artifact of this.#done.splice(0)) {
      const name = uniqueName(artifact.stem, artifact.ext, used);
      used.add(name.toLowerCase());
      const target = join(root, name);
      // Defence in depth: slugify already forbids separators and leading dots.
      if (!resolve(target).startsWith(root + sep)) continue;
      copyFileSync(artifact.file, target, constants.COPYFILE_EXCL);
      events.push(artifactEvent(artifact, name));
    }
    return events;
  }

  /**
   * Ends the text and hands every complete artifact to `place`, which writes it somewhere else (a remote project)
   * under a free name of its choosing: one event per file it wrote.
   */
  async commitWith(place: ArtifactPlacer): Promise<AgentEventOf<"artifact">[]> {
    this.#scanner.end();
    const events: AgentEventOf<"artifact">[] = [];
    for (const artifact of this.#done.splice(0)) {
      const name = await place({ stem: artifact.stem, ext: artifact.ext, bodyFile: artifact.file });
      if (name !== undefined) events.push(artifactEvent(artifact, name));
    }
    return events;
  }

  [Symbol.dispose](): void {
    this.#open?.body?.close();
    this.#open = undefined;
    this.#done.length = 0;
    if (this.#staging) rmSync(this.#staging, { recursive: true, force: true });
    this.#staging = undefined;
  }

  #start(attributeSource: string): void {
    const attrs = parseAttributes(attributeSource);
    const artifactType = (attrs.type ?? "").trim().toLowerCase();
    const ext = ARTIFACT_EXTENSIONS[artifactType];
    let stem = slugify(attrs.identifier ?? attrs.title ?? "artifact");
    if (ext && stem.endsWith(`.${ext}`)) stem = stem.slice(0, -(ext.length + 1)) || "artifact";
    const artifact = { stem, ext: ext ?? "", artifactType, ...(attrs.identifier !== undefined ? { identifier: attrs.identifier } : {}) };
    // An unsupported type's block is skipped whole, as planArtifacts skips it.
    this.#open = { artifact, body: ext ? new BodyFile(join(this.#stagingDir(), String(this.#done.length))) : undefined };
  }

  #finish(): void {
    const open = this.#open;
    this.#open = undefined;
    if (!open?.body) return;
    this.#done.push({ ...open.artifact, file: open.body.close() });
  }

  #stagingDir(): string {
    // mkdtemp creates the folder 0700: the bodies are readable by this user only.
    return (this.#staging ??= mkdtempSync(join(process.getBuiltinModule("node:os").tmpdir(), "od-artifacts-")));
  }
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
