import { describe, expect, test } from "bun:test";
import { Credentials, FILE_TICKET_TTL_MS, LAUNCH_CODE_TTL_MS, OPENED_CODE_TTL_MS } from "../../server/http/credentials.ts";

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

describe("credentials", () => {
  test("a launch code trades once, and not after its time", () => {
    const time = clock();
    const credentials = new Credentials("api", time.now);
    const printed = credentials.issueLaunchCode();
    const opened = credentials.issueLaunchCode(OPENED_CODE_TTL_MS);
    expect(printed.expiresAt - time.state.now).toBe(LAUNCH_CODE_TTL_MS);
    time.state.now += OPENED_CODE_TTL_MS;
    expect(credentials.redeem(opened.code)).toBeUndefined(); // the one on a browser's argv died within minutes
    const secret = credentials.redeem(printed.code);
    expect(secret).toMatch(/^[\w-]{32}$/);
    expect(credentials.redeem(printed.code)).toBeUndefined();
    expect(credentials.authenticates(secret)).toBe(true);
    expect(credentials.authenticates(printed.code)).toBe(false);
  });

  test("the API token authenticates; near misses and empty values do not", () => {
    const credentials = new Credentials("api-token");
    expect(credentials.authenticates("api-token")).toBe(true);
    for (const wrong of ["api-toke", "api-tokenn", "API-TOKEN", "", undefined]) expect(credentials.authenticates(wrong)).toBe(false);
  });

  test("sessions are bounded: the oldest is dropped first; a revoked one is gone", () => {
    const credentials = new Credentials("api");
    const secrets = Array.from({ length: 65 }, () => credentials.redeem(credentials.issueLaunchCode().code)!);
    expect(credentials.authenticates(secrets[0])).toBe(false);
    expect(credentials.authenticates(secrets[64])).toBe(true);
    credentials.revoke(secrets[64]!);
    expect(credentials.authenticates(secrets[64])).toBe(false);
  });

  test("a file ticket allows exactly its scope until it expires", () => {
    const time = clock();
    const credentials = new Credentials("api", time.now);
    const scope = { pathname: "/api/projects/p1/files/raw", path: "a.html" };
    const { ticket } = credentials.issueFileTicket(scope);
    expect(credentials.fileTicketAllows(ticket, scope)).toBe(true);
    expect(credentials.fileTicketAllows(ticket, { ...scope, path: "b.html" })).toBe(false);
    expect(credentials.fileTicketAllows(ticket, { ...scope, pathname: "/api/projects/p2/files/raw" })).toBe(false);
    expect(credentials.authenticates(ticket)).toBe(false); // a ticket is no bearer credential
    time.state.now += FILE_TICKET_TTL_MS;
    expect(credentials.fileTicketAllows(ticket, scope)).toBe(false);
  });
});
