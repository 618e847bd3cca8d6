/** The right column: files the agents wrote, and a preview (sandboxed frame for HTML/SVG, safe Markdown, text). */
import { Markdown } from "../components/markdown.tsx";
import { ShowMore, useNewestPage } from "../components/show-more.tsx";
import type { FilesModel } from "../state/files.ts";
import { CloseIcon, RefreshIcon } from "../components/icons.tsx";

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function Preview({ files }: { files: FilesModel }) {
  const path = files.selected.value;
  const url = files.selectedUrl.value;
  if (!path || !url) return null;
  const kind = files.selectedKind.value;
  return (
    <section class="preview" data-testid="preview" data-kind={kind}>
      <div class="preview-head">
        <code class="preview-path">{path}</code>
        <a href={url} target="_blank" rel="noopener noreferrer" data-testid="open-in-tab">
          Open in new tab
        </a>
        <button type="button" class="icon" title="Close preview" aria-label="Close preview" onClick={() => void files.select(null)}>
          <CloseIcon />
        </button>
      </div>
      {kind === "frame" && (
        // No allow-same-origin: the page runs in an opaque origin and cannot reach the daemon's cookie or API.
        <iframe key={url} class="preview-frame" data-testid="preview-frame" sandbox="allow-scripts" src={url} title={`Preview of ${path}`} />
      )}
      {kind === "image" && <img class="preview-image" src={url} alt={path} />}
      {kind === "markdown" && (files.text.value === null ? <p class="muted">Loading…</p> : <Markdown text={files.text.value} class="preview-markdown" />)}
      {kind === "text" && <pre class="preview-text">{files.text.value ?? "Loading…"}</pre>}
    </section>
  );
}

/** `onClose`: closes the panel when it is a drawer (narrow screens). */
export function FilesPanel({ files, onClose }: { files: FilesModel; onClose?: () => void }) {
  // The most recently written first, a page at a time.
  const selected = files.selected.value;
  const listed = useNewestPage(files.files.value, files.projectId.value, (file) => file.path === selected);
  return (
    <aside class="files" aria-label="Files" data-testid="files-panel">
      <div class="sidebar-head">
        <h2>Files</h2>
        {files.projectId.value && (
          <button type="button" class="ghost small" title="Refresh" aria-label="Refresh files" onClick={() => void files.refresh()}>
            <RefreshIcon />
          </button>
        )}
        <button type="button" class="icon drawer-close" aria-label="Close files" onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      {files.files.value.length === 0 && <p class="empty">Files your agents write appear here.</p>}
      <ul class="file-list">
        {listed.shown.map((file) => (
          <li key={file.path} class={file.path === selected ? "selected" : ""}>
            <button type="button" class="file-item" data-testid="file-item" data-path={file.path} onClick={() => void files.select(file.path)}>
              <span class="file-path">{file.path}</span>
              <span class="muted">{size(file.size)}</span>
            </button>
          </li>
        ))}
        <ShowMore hidden={listed.hidden} onClick={listed.showMore} testId="more-files" />
      </ul>
      {files.error.value && <p class="error">{files.error.value}</p>}
      <Preview files={files} />
    </aside>
  );
}
