/**
 * `POST /api/runs/:id/output/link`: a short-lived URL for a run's whole answer (`GET /api/runs/:id/output`), which a
 * new browser tab opens without the page's bearer header — the same kind of ticket a previewed file gets.
 */
import { Elysia } from "elysia";
import type { FileLinkResponse } from "../contracts/session.ts";
import type { Store } from "../store/store.ts";
import type { Credentials } from "./credentials.ts";
import { HttpError } from "./errors.ts";

export const runOutputLinkRoutes = (store: Store, credentials: Credentials) =>
  new Elysia({ name: "run-output-link" }).post("/api/runs/:id/output/link", ({ params }): FileLinkResponse => {
    if (!store.runs.get(params.id)) throw new HttpError(404, "NOT_FOUND", `no run ${params.id}`);
    const pathname = `/api/runs/${encodeURIComponent(params.id)}/output`;
    const { ticket, expiresAt } = credentials.issueFileTicket({ pathname, path: "" });
    return { url: `${pathname}?ticket=${ticket}`, expiresAt };
  });
