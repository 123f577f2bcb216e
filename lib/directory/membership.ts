/**
 * `membership.status` is derived at read time from source state, against the response's `asOf`,
 * so an invitation expires in the API the moment its `expiresAt` passes, with no reload.
 */
import type { ApiMembership } from "./api-schema.js";
import type { SourceMembership } from "./source.js";
import type { MembershipStatus } from "./vocabulary.js";

/**
 * 1. membership `revoked` → `revoked_access`
 * 2. membership `active` → `active`, or `revoked_access` when the linked user is `disabled`
 * 3. no membership, an invitation → `invited_expired` when `expiresAt` ≤ `asOf` or its status is
 *    exactly `expired`; otherwise `invited_pending`
 * 4. nothing → `not_invited`
 * The user state matters only under rule 2. Instants compare at millisecond precision.
 */
export function deriveMembershipStatus(membership: SourceMembership, asOf: Date): MembershipStatus {
  if (membership.state === "revoked") return "revoked_access";
  if (membership.state === "active") return membership.userState === "disabled" ? "revoked_access" : "active";
  const { invitation } = membership;
  if (invitation === null) return "not_invited";
  const expired = invitation.status === "expired" || Date.parse(invitation.expiresAt) <= asOf.getTime();
  return expired ? "invited_expired" : "invited_pending";
}

/** The API object: the derived status, and the stored invitation (or null) whatever the status. */
export function toApiMembership(membership: SourceMembership, asOf: Date): ApiMembership {
  const { invitation } = membership;
  return {
    status: deriveMembershipStatus(membership, asOf),
    invitation:
      invitation === null
        ? null
        : { status: invitation.status, invitedAt: invitation.invitedAt, expiresAt: invitation.expiresAt },
  };
}
