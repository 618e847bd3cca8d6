/**
 * Browser sign-in: `POST /api/session {code}` trades a one-time launch code for a session secret (open route: the
 * code is the credential); `DELETE /api/session` signs that session out; `POST /api/session/links` hands a signed-in
 * client a fresh one-time URL for another browser.
 */
import { Elysia } from "elysia";
import { CreateSessionRequest, type CreateSessionResponse, type SessionLinkResponse } from "../contracts/session.ts";
import { LINK_CODE_TTL_MS, type Credentials } from "./credentials.ts";
import { HttpError, parseBody } from "./errors.ts";

export const sessionRoutes = (credentials: Credentials) =>
  new Elysia({ name: "session" })
    .post("/api/session", ({ body, set }): CreateSessionResponse => {
      const secret = credentials.redeem(parseBody(CreateSessionRequest, body).code);
      if (!secret) {
        throw new HttpError(401, "INVALID_LAUNCH_CODE", "this sign-in link was already used or has expired; open the URL od printed, or get a new link from a signed-in page");
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
    .post("/api/session/links", ({ request }): SessionLinkResponse => {
      // The guard has checked Host against our own names, so it is the address this client reaches us by.
      const { code, expiresAt } = credentials.issueLaunchCode(LINK_CODE_TTL_MS);
      return { url: `http://${request.headers.get("host")}/?token=${code}`, expiresAt };
    });
