import { deriveMembershipStatus, toApiMembership } from "../../lib/directory/membership.js";
import type { SourceInvitation, SourceMembership } from "../../lib/directory/source.js";

const AS_OF = new Date("2025-06-01T12:00:00.000Z");
const invitation = (expiresAt: string, status = "pending"): SourceInvitation => ({
  status,
  invitedAt: "2025-05-01T12:00:00Z",
  expiresAt,
});
const FUTURE = invitation("2025-06-01T12:00:00.001Z");
const PAST = invitation("2025-06-01T11:59:59.999Z");
const AT_AS_OF = invitation("2025-06-01T12:00:00Z");

const m = (
  state: SourceMembership["state"],
  userState: SourceMembership["userState"],
  inv: SourceInvitation | null,
): SourceMembership => ({ state, userState, invitation: inv });

describe("deriveMembershipStatus", () => {
  it.each([
    // 1. membership revoked → revoked_access, whatever else is stored
    ["revoked, no user, no invitation", m("revoked", null, null), "revoked_access"],
    ["revoked, active user", m("revoked", "active", null), "revoked_access"],
    ["revoked, disabled user", m("revoked", "disabled", null), "revoked_access"],
    ["revoked, pending invitation", m("revoked", "active", FUTURE), "revoked_access"],
    // 2. membership active → active, unless the user is disabled
    ["active, active user", m("active", "active", null), "active"],
    ["active, no user record", m("active", null, null), "active"],
    ["active, expired invitation (membership wins)", m("active", "active", PAST), "active"],
    ["active, disabled user", m("active", "disabled", null), "revoked_access"],
    ["active, disabled user, pending invitation", m("active", "disabled", FUTURE), "revoked_access"],
    // 3. no membership, an invitation
    ["invitation expiring after asOf", m(null, null, FUTURE), "invited_pending"],
    ["invitation expiring exactly at asOf (expiresAt == asOf)", m(null, null, AT_AS_OF), "invited_expired"],
    ["invitation expired before asOf", m(null, null, PAST), "invited_expired"],
    [
      "invitation with status expired, expiresAt in the future",
      m(null, null, invitation("2030-01-01T00:00:00Z", "expired")),
      "invited_expired",
    ],
    [
      "invitation status Expired is not the status expired",
      m(null, null, invitation("2030-01-01T00:00:00Z", "Expired")),
      "invited_pending",
    ],
    [
      "invitation status accepted, not expired",
      m(null, null, invitation("2030-01-01T00:00:00Z", "accepted")),
      "invited_pending",
    ],
    [
      "expiresAt with offset equal to asOf",
      m(null, null, invitation("2025-06-01T14:00:00+02:00")),
      "invited_expired",
    ],
    [
      "expiresAt with offset one second after asOf",
      m(null, null, invitation("2025-06-01T07:00:01-05:00")),
      "invited_pending",
    ],
    [
      "pending invitation, disabled user (user state ignored)",
      m(null, "disabled", FUTURE),
      "invited_pending",
    ],
    // 4. nothing
    ["nothing", m(null, null, null), "not_invited"],
    ["no membership, no invitation, disabled user", m(null, "disabled", null), "not_invited"],
    ["no membership, no invitation, active user", m(null, "active", null), "not_invited"],
  ])("%s", (_name, membership, expected) => {
    expect(deriveMembershipStatus(membership, AS_OF)).toBe(expected);
  });

  it("expires an invitation as asOf moves past expiresAt", () => {
    const membership = m(null, null, AT_AS_OF);
    expect(deriveMembershipStatus(membership, new Date(AS_OF.getTime() - 1))).toBe("invited_pending");
    expect(deriveMembershipStatus(membership, AS_OF)).toBe("invited_expired");
  });
});

describe("toApiMembership", () => {
  it("returns the stored invitation whatever the status", () => {
    expect(toApiMembership(m("active", "active", PAST), AS_OF)).toEqual({
      status: "active",
      invitation: PAST,
    });
    expect(toApiMembership(m(null, null, PAST), AS_OF)).toEqual({
      status: "invited_expired",
      invitation: PAST,
    });
  });

  it("returns null when there is no invitation", () => {
    expect(toApiMembership(m("revoked", null, null), AS_OF)).toEqual({
      status: "revoked_access",
      invitation: null,
    });
  });

  it("copies the invitation rather than sharing it", () => {
    const source = m(null, null, invitation("2030-01-01T00:00:00Z"));
    const api = toApiMembership(source, AS_OF);
    expect(api.invitation).not.toBe(source.invitation);
  });
});
