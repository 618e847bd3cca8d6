/**
 * The files panel: the project's files (refreshed when a run writes), the selected one, and how to preview it.
 * HTML/SVG and images preview in a sandboxed frame or an image from a short-lived file link (frames cannot send the
 * page's bearer header, so the daemon hands out a capability URL for that one file); Markdown and text are fetched.
 */
import { computed, signal } from "@preact/signals";
import type { ProjectFile } from "../../server/contracts/projects.ts";
import type { FileLinkResponse } from "../../server/contracts/session.ts";
import { errorMessage, type Api } from "../api/client.ts";

/** How a file is shown. */
export type PreviewKind = "frame" | "markdown" | "image" | "text";

const FRAME = new Set(["html", "htm", "svg"]);
const IMAGE = new Set(["png", "jpg", "jpeg", "gif", "webp", "avif", "ico", "bmp"]);
const MARKDOWN = new Set(["md", "markdown", "mdx"]);

export function previewKind(path: string): PreviewKind {
  const ext = path.toLowerCase().split(".").pop() ?? "";
  if (FRAME.has(ext)) return "frame";
  if (IMAGE.has(ext)) return "image";
  if (MARKDOWN.has(ext)) return "markdown";
  return "text";
}

export function rawFileUrl(projectId: string, path: string): string {
  return `/api/projects/${encodeURIComponent(projectId)}/files/raw?path=${encodeURIComponent(path)}`;
}

const TEXT_PREVIEW_LIMIT = 512 * 1024;

export function createFilesModel(api: Api) {
  const projectId = signal<string | null>(null, { name: "files.projectId" });
  const files = signal<ProjectFile[]>([], { name: "files.list" });
  const selected = signal<string | null>(null, { name: "files.selected" });
  const text = signal<string | null>(null, { name: "files.text" });
  const error = signal<string | null>(null, { name: "files.error" });
  /** Bumped on every refresh so a frame preview reloads the file it shows. */
  const revision = signal(0, { name: "files.revision" });
  let inFlight: Promise<void> | null = null;
  let again = false;

  const selectedKind = computed(() => (selected.value ? previewKind(selected.value) : null), { name: "files.selectedKind" });
  /** A file link for the selected file (frames, images, "open in new tab"); a new one after every refresh. */
  const selectedUrl = signal<string | null>(null, { name: "files.selectedUrl" });

  async function show(project: string | null): Promise<void> {
    projectId.value = project;
    files.value = [];
    selected.value = null;
    text.value = null;
    await refresh();
  }

  /** Re-lists the files; calls during a refresh coalesce into one more. */
  function refresh(): Promise<void> {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      do {
        again = false;
        const id = projectId.peek();
        if (!id) return;
        try {
          const list = (await api.get<{ files: ProjectFile[] }>(`/api/projects/${encodeURIComponent(id)}/files`)).files;
          if (projectId.peek() !== id) return;
          files.value = [...list].sort((a, b) => b.modifiedAt - a.modifiedAt);
          error.value = null;
          revision.value++;
          if (selected.peek()) await loadPreview();
        } catch (listError) {
          error.value = errorMessage(listError);
        }
      } while (again);
    })().finally(() => (inFlight = null));
    return inFlight;
  }

  async function select(path: string | null): Promise<void> {
    selected.value = path;
    selectedUrl.value = null;
    text.value = null;
    await loadPreview();
  }

  async function loadPreview(): Promise<void> {
    const id = projectId.peek();
    const path = selected.peek();
    if (!id || !path) return;
    await Promise.all([loadLink(id, path), loadText(id, path)]);
  }

  async function loadLink(id: string, path: string): Promise<void> {
    try {
      const link = await api.post<FileLinkResponse>(`/api/projects/${encodeURIComponent(id)}/files/link`, { path });
      if (selected.peek() === path) selectedUrl.value = link.url;
    } catch (linkError) {
      if (selected.peek() === path) error.value = `Could not open ${path}: ${errorMessage(linkError)}`;
    }
  }

  async function loadText(id: string, path: string): Promise<void> {
    const kind = previewKind(path);
    if (kind !== "markdown" && kind !== "text") return;
    try {
      const res = await api.raw(rawFileUrl(id, path));
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = await res.text();
      if (selected.peek() === path) text.value = body.length > TEXT_PREVIEW_LIMIT ? `${body.slice(0, TEXT_PREVIEW_LIMIT)}\n…` : body;
    } catch (readError) {
      if (selected.peek() === path) text.value = `Could not read ${path}: ${errorMessage(readError)}`;
    }
  }

  return { projectId, files, selected, selectedKind, selectedUrl, text, error, revision, show, refresh, select };
}
export type FilesModel = ReturnType<typeof createFilesModel>;
