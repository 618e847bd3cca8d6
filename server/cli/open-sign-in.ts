/**
 * Opening a browser signed in to od, shared by `od serve` and `od open`: the one-time URL goes into a private
 * redirect page in the data dir (sign-in-page.ts) and the browser gets that page's path. When no browser can be
 * opened, stderr says so and names the command that prints a URL to paste instead.
 */
import { resolve } from "node:path";
import { SIGN_IN_COMMAND } from "../contracts/sign-in-command.ts";
import { openBrowser } from "./open-browser.ts";
import { writeSignInPage } from "./sign-in-page.ts";

export type OpenSignInOptions = {
  dataDir: string;
  url: string;
  env: Record<string, string | undefined>;
  stderr: (text: string) => void;
  /** `--data-dir DIR` when the user gave one, so the command we suggest reaches the same od. */
  dataDirFlag?: string;
};

export async function openSignIn(options: OpenSignInOptions): Promise<boolean> {
  let page: string;
  try {
    page = writeSignInPage(resolve(options.dataDir), options.url);
  } catch (error) {
    options.stderr(`od: could not write the sign-in page: ${error instanceof Error ? error.message : String(error)}; ${printHint(options)}\n`);
    return false;
  }
  const outcome = await openBrowser(page, options.env);
  if (!outcome.opened) options.stderr(`od: could not open a browser (${outcome.reason}); ${printHint(options)}\n`);
  return outcome.opened;
}

function printHint(options: OpenSignInOptions): string {
  const dataDir = options.dataDirFlag ? ` --data-dir ${options.dataDirFlag}` : "";
  return `run \`${SIGN_IN_COMMAND} --print${dataDir}\` for a sign-in URL to paste into a browser`;
}
