/**
 * Browser sign-in: `POST /api/session {code}` trades a one-time launch code for a session secret (open route: the
 * code is the credential); `DELETE /api/session` signs that session out, `DELETE /api/sessions` every session (sign
 * out everywhere); `POST /api/session/links` hands a signed-in client (or `od open`) a fresh one-time sign-in URL.
 */
import { Elysia } from "elysia";
import type { CreateSessionResponse, SessionLinkResponse, SignOutEverywhereResponse } from "../contracts/session.ts";
import { LINK_CODE_TTL_MS, type Credentials } from "./credentials.ts";
import { HttpError, parseBody } from "./errors.ts";
import { SIGN_IN_ADVICE } from "../contracts/sign-in-command.ts";
import { sessionContract } from "./request-schemas.ts";

export const sessionRoutes = (credentials: Credentials) =>
  new Elysia({ name: "session" })
    .post("/api/session", ({ body, set }): CreateSessionResponse => {
      const secret = credentials.redeem(parseBody(sessionContract().CreateSessionRequest, body).code);
      if (!secret) {
        throw new HttpError(401, "INVALID_LAUNCH_CODE", `this sign-in link was already used or has expired; ${SIGN_IN_ADVICE}`);
      }
      set.status = 201;
      set.headers["cache-control"] = "no-store";
      return { secret };
    })
    .delete("/api/session", ({ request }) => {
      const secret = request.headers.get("authorization")?.replace(/^Bearer\s+/i, "").trim();
      if (secret) credentials.revoke(secret);
      return { ok: true };
    })
    .delete("/api/sessions", (): SignOutEverywhereResponse => ({ ok: true, ended: credentials.revokeAll() }))
    .post("/api/session/links", ({ request }): SessionLinkResponse => {
      // The guard has checked Host against our own names, so it is the address this client reaches us by.
      const { code, expiresAt } = credentials.issueLaunchCode(LINK_CODE_TTL_MS);
      return { url: `http://${request.headers.get("host")}/?token=${code}`, expiresAt };
    });
