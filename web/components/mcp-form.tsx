/**
 * MCP servers as a form: one card per server (name, command and arguments or URL, environment or headers, on/off),
 * Add and Remove, Save; each invalid entry is named at its field, from what od answered (or the line it could not
 * read). The JSON is one click away, for pasting a config from elsewhere.
 */
import { useEffect, useState } from "preact/hooks";
import type { McpServer } from "../../server/contracts/mcp.ts";
import { draftOf, emptyDraft, serversOf, type DraftField, type DraftIssue, type ServerDraft } from "../lib/mcp-drafts.ts";
import type { McpModel } from "../state/optional-features.ts";

export function McpForm({ mcp, servers }: { mcp: McpModel; servers: readonly McpServer[] }) {
  const [drafts, setDrafts] = useState<ServerDraft[]>(() => servers.map(draftOf));
  const [issues, setIssues] = useState<DraftIssue[]>([]);
  useEffect(() => setDrafts(servers.map(draftOf)), [servers]);

  const edit = (index: number, field: DraftField, value: string | boolean) => {
    setDrafts(drafts.map((draft, i) => (i === index ? { ...draft, [field]: value } : draft)));
    setIssues(issues.filter((issue) => !(issue.index === index && issue.field === field)));
  };
  const remove = (index: number) => {
    setDrafts(drafts.filter((_, i) => i !== index));
    setIssues(issues.filter((issue) => issue.index !== index).map((issue) => (issue.index > index ? { ...issue, index: issue.index - 1 } : issue)));
  };
  const save = async () => {
    const read = serversOf(drafts);
    if (read.issues.length) return setIssues(read.issues);
    setIssues(await mcp.saveServers(read.servers));
  };
  const issueOf = (index: number, field: DraftField) => issues.find((issue) => issue.index === index && issue.field === field)?.message;

  return (
    <div class="mcp-form" data-testid="mcp-form">
      {drafts.length === 0 && <p class="muted">No servers yet.</p>}
      {drafts.map((draft, index) => {
        const id = (field: string) => `mcp-${draft.key}-${field}`;
        const field = (name: DraftField, label: string, input: preact.JSX.Element) => {
          const problem = issueOf(index, name);
          return (
            <label class="mcp-field" for={id(name)} data-field={name}>
              <span>{label}</span>
              {input}
              {problem && (
                <span class="error" id={id(`${name}-issue`)} data-testid="mcp-issue">
                  {problem}
                </span>
              )}
            </label>
          );
        };
        const described = (name: DraftField) => (issueOf(index, name) ? { "aria-invalid": true, "aria-describedby": id(`${name}-issue`) } : {});
        return (
          <fieldset key={draft.key} class="mcp-server" data-testid="mcp-server" data-invalid={issues.some((issue) => issue.index === index) ? "true" : undefined}>
            <legend>{draft.name || "New server"}</legend>
            <div class="mcp-row">
              {field("name", "Name", <input id={id("name")} data-testid="mcp-name" value={draft.name} onInput={(e) => edit(index, "name", e.currentTarget.value)} {...described("name")} />)}
              {field(
                "type",
                "Kind",
                <select id={id("type")} data-testid="mcp-type" value={draft.type} onChange={(e) => edit(index, "type", e.currentTarget.value)}>
                  <option value="stdio">Command (stdio)</option>
                  <option value="http">URL (http)</option>
                  <option value="sse">URL (sse)</option>
                </select>,
              )}
              <label class="mcp-enabled">
                <input type="checkbox" checked={draft.enabled} onChange={(e) => edit(index, "enabled", e.currentTarget.checked)} /> On
              </label>
              <button type="button" class="ghost small" data-testid="mcp-remove" aria-label={`Remove ${draft.name || "this server"}`} onClick={() => remove(index)}>
                Remove
              </button>
            </div>
            {draft.type === "stdio" ? (
              <>
                {field("command", "Command", <input id={id("command")} data-testid="mcp-command" class="mono" value={draft.command} onInput={(e) => edit(index, "command", e.currentTarget.value)} {...described("command")} />)}
                {field("args", "Arguments, one per line", <textarea id={id("args")} data-testid="mcp-args" class="mono" rows={2} value={draft.args} onInput={(e) => edit(index, "args", e.currentTarget.value)} {...described("args")} />)}
                {field("env", "Environment, NAME=value per line", <textarea id={id("env")} data-testid="mcp-env" class="mono" rows={2} value={draft.env} onInput={(e) => edit(index, "env", e.currentTarget.value)} {...described("env")} />)}
              </>
            ) : (
              <>
                {field("url", "URL", <input id={id("url")} data-testid="mcp-url" class="mono" value={draft.url} onInput={(e) => edit(index, "url", e.currentTarget.value)} {...described("url")} />)}
                {field("headers", "Headers, Name: value per line", <textarea id={id("headers")} data-testid="mcp-headers" class="mono" rows={2} value={draft.headers} onInput={(e) => edit(index, "headers", e.currentTarget.value)} {...described("headers")} />)}
              </>
            )}
          </fieldset>
        );
      })}
      <div class="row">
        <button type="button" class="small" data-testid="mcp-add" onClick={() => setDrafts([...drafts, emptyDraft()])}>
          Add server
        </button>
        <button type="button" class="small primary" data-testid="mcp-save" onClick={() => void save()}>
          Save
        </button>
        {mcp.saved.value && <span class="muted">Saved</span>}
        {mcp.error.value && !issues.length && <span class="error">{mcp.error.value}</span>}
        {issues.length > 0 && (
          <span class="error" role="alert">
            {issues.length === 1 ? "One entry needs a fix" : `${issues.length} entries need a fix`}: see the fields marked.
          </span>
        )}
      </div>
    </div>
  );
}
