/**
 * A link to an API resource a new tab opens (a run's whole answer): a tab cannot send the page's bearer header, so a
 * click first asks the daemon for a short-lived ticket URL for it (`POST <href>/link`), then opens that.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { FileLinkResponse } from "../../server/contracts/session.ts";
import { defaultApi, errorMessage } from "../api/client.ts";

export function TicketLink({ href, children, testId }: { href: string; children: ComponentChildren; testId?: string }) {
  const [error, setError] = useState<string | null>(null);
  const open = async (event: MouseEvent) => {
    event.preventDefault();
    try {
      const { url } = await defaultApi.post<FileLinkResponse>(`${href}/link`);
      window.open(url, "_blank", "noopener");
      setError(null);
    } catch (linkError) {
      setError(errorMessage(linkError));
    }
  };
  return (
    <>
      <a href={href} onClick={(e) => void open(e)} data-testid={testId}>
        {children}
      </a>
      {error && <span class="error"> {error}</span>}
    </>
  );
}
