/**
 * The usage figures of one run, kept as its AgentEvents go by and stored on the run when it ends: tokens and
 * cost from `usage` events (each field: the latest reported value, as the UI shows it), the model from whichever
 * event last named one. Nothing is estimated: a figure the CLI never reported stays null.
 */
import type { AgentEvent } from "../contracts/events.ts";
import type { RunUsageTotals } from "../store/runs-repo.ts";
import { perEvent } from "../platform/jit-tiers.ts";

export class UsageTally {
  static {
    perEvent(this.prototype.push);
  }

  #totals: RunUsageTotals = { inputTokens: null, outputTokens: null, costUsd: null, reportedModel: null };

  push(event: AgentEvent): void {
    if (event.type === "status" && event.model) this.#totals.reportedModel = event.model;
    if (event.type !== "usage") return;
    if (event.model) this.#totals.reportedModel = event.model;
    if (event.usage?.input_tokens !== undefined) this.#totals.inputTokens = event.usage.input_tokens;
    if (event.usage?.output_tokens !== undefined) this.#totals.outputTokens = event.usage.output_tokens;
    if (event.costUsd !== undefined) this.#totals.costUsd = event.costUsd;
  }

  get totals(): RunUsageTotals {
    return { ...this.#totals };
  }
}
