/** A command shown as code with a button that copies it. */
import { useState } from "preact/hooks";

export function CopyCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <span class="copy-command" data-testid="copy-command">
      <code>{command}</code>
      <button type="button" class="small" onClick={copy}>
        {copied ? "Copied" : "Copy"}
      </button>
    </span>
  );
}
