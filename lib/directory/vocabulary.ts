/**
 * The closed value sets of the directory, shared by the source-format schemas, the API schemas and
 * the derivations, so a value is spelled in one place only.
 */

/** Systems an external id may belong to (ExternalId.system). */
export const EXTERNAL_ID_SYSTEMS = ["payroll_system", "hhaexchange"] as const;

/** Derived `membership.status` of the API. */
export const MEMBERSHIP_STATUSES = [
  "not_invited",
  "invited_pending",
  "invited_expired",
  "active",
  "revoked_access",
] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** Source membership record state (`null` in the data: no membership record). */
export const SOURCE_MEMBERSHIP_STATES = ["active", "revoked"] as const;

/** Source state of the linked user (`null` in the data: no linked user). */
export const USER_STATES = ["active", "disabled"] as const;

/**
 * Coverage statuses, best first: this order is the rank used to pick the coverage returned when
 * several records are current (decisions: enrolled > enrolled_not_paying > … > terminated).
 */
export const COVERAGE_STATUSES = [
  "enrolled",
  "enrolled_not_paying",
  "awaiting_coverage",
  "waived",
  "terminated",
] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

/** Non-null values of `participation.decision`. */
export const PARTICIPATION_DECISIONS = ["opt_in", "opt_out"] as const;
