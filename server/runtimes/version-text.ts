/** Reading a version number out of what a CLI prints for `--version`. Pure. */

const VERSION_NUMBER = /\d+(?:\.\d+)+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?/;

/**
 * The first dotted version number in `text` (`GitHub Copilot CLI 1.0.102.` → `1.0.102`, `v2.3.0-rc.1` →
 * `2.3.0-rc.1`); null when there is none.
 */
export function versionNumberIn(text: string): string | null {
  return VERSION_NUMBER.exec(text)?.[0] ?? null;
}
