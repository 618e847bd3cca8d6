/**
 * The floor page of the page benchmark (bench/fixtures/page-floor.html): the least page that shows a run live, served
 * by the browser itself at a path of od's origin, so it reads the run's stream from od as od's own page does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";

export const FLOOR_PAGE = "bench/fixtures/page-floor.html";
const FLOOR_PATH = "/bench-page-floor";
const FLOOR_HTML = readFileSync(join(import.meta.dir, "..", "fixtures", "page-floor.html"), "utf8");

/** A new page on the floor, reading run `runId`'s stream from the daemon at `origin`; resolves once it is connected. */
export async function openFloorPage(browser: Browser, origin: string, token: string, runId: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  try {
    await page.route(`${origin}${FLOOR_PATH}`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: FLOOR_HTML }));
    await page.goto(`${origin}${FLOOR_PATH}#${encodeURIComponent(runId)}:${encodeURIComponent(token)}`);
    await page.waitForSelector("body[data-connected='200']", { timeout: 60_000 });
    return page;
  } catch (error) {
    await page.close();
    throw error;
  }
}

/** Resolves once the floor page has read the run's `end`. */
export async function floorPageEnded(page: Page, timeoutMs: number): Promise<void> {
  await page.waitForSelector("body[data-ended=true]", { timeout: timeoutMs });
}
