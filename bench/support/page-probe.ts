/**
 * What the page benchmark reads from a Chromium tab: frames per second counted with requestAnimationFrame, the
 * time spent in long tasks, the JS heap after a forced GC (over CDP), the DOM's element count, and when a given
 * text was first painted. Each function runs in the page or talks to it; none of them changes what it measures.
 */
import type { Page } from "playwright-core";

/** Starts counting frames (one count per wall-clock second) and long-task time in the page. */
export function startFrameCounter(page: Page): Promise<void> {
  return page.evaluate(() => {
    const probe = { frames: [] as number[], longTaskMs: 0, running: true, second: performance.now(), count: 0, since: performance.now() };
    (window as unknown as { __odProbe: typeof probe }).__odProbe = probe;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.longTaskMs += entry.duration;
    }).observe({ type: "longtask", buffered: false });
    const tick = (now: number) => {
      if (!probe.running) return;
      probe.count++;
      if (now - probe.second >= 1000) {
        probe.frames.push((probe.count * 1000) / (now - probe.second));
        probe.second = now;
        probe.count = 0;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops the counter: the frame rate of each whole second, the long-task time and the wall time counted (ms). */
export function stopFrameCounter(page: Page): Promise<{ fps: number[]; longTaskMs: number; wallMs: number }> {
  return page.evaluate(() => {
    const probe = (window as unknown as { __odProbe: { frames: number[]; longTaskMs: number; running: boolean; since: number } }).__odProbe;
    probe.running = false;
    return { fps: probe.frames, longTaskMs: probe.longTaskMs, wallMs: performance.now() - probe.since };
  });
}

/** The JS heap in use (MB) after a full garbage collection. */
export async function heapAfterGcMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("HeapProfiler.collectGarbage");
    const usage = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
    return usage.usedSize / (1024 * 1024);
  } finally {
    await cdp.detach();
  }
}

export function domElements(page: Page): Promise<number> {
  return page.evaluate(() => document.getElementsByTagName("*").length);
}

/**
 * Ms from the start of the current document's navigation to the first animation frame in which an assistant text
 * equal to `text` is in the DOM (checked every frame: the frame it is found in is the one that paints it).
 */
export async function textPaintedMs(page: Page, text: string, timeoutMs: number): Promise<number> {
  const handle = await page.waitForFunction(
    (wanted) => {
      for (const el of document.querySelectorAll("[data-testid=assistant-text]")) if (el.textContent === wanted) return performance.now();
      return false;
    },
    text,
    { polling: "raf", timeout: timeoutMs },
  );
  return (await handle.jsonValue()) as number;
}
