/**
 * Signing a browser in (server/http/credentials.ts): the URL od prints carries a one-time launch code in `?token=`;
 * the page trades it for a session secret it keeps in its origin's localStorage and sends as a bearer header. od keeps
 * only a hash of each secret, in od.db, so sessions outlive a restart until signed out or 30 days unused.
 */
import { z } from "./zod.ts";

/** `POST /api/session`: trade a launch code (the `token` of the printed URL) for a session. */
export const CreateSessionRequest = z.strictObject({ code: z.string().min(1).max(256) });
export const CreateSessionResponse = z.object({ secret: z.string() });
export type CreateSessionResponse = z.infer<typeof CreateSessionResponse>;

/** `POST /api/session/links`: a fresh one-time sign-in URL, for another browser (or after the first was used). */
export const SessionLinkResponse = z.object({ url: z.string(), expiresAt: z.number() });
export type SessionLinkResponse = z.infer<typeof SessionLinkResponse>;

/** `DELETE /api/sessions`: every browser signed out (the API token keeps working). */
export const SignOutEverywhereResponse = z.object({ ok: z.literal(true), ended: z.number().int() });
export type SignOutEverywhereResponse = z.infer<typeof SignOutEverywhereResponse>;

/** `POST /api/projects/:id/files/link`: a short-lived URL for one file, for frames and images (no headers there). */
export const FileLinkRequest = z.strictObject({ path: z.string().min(1).max(4096) });
export const FileLinkResponse = z.object({ url: z.string(), expiresAt: z.number() });
export type FileLinkResponse = z.infer<typeof FileLinkResponse>;
