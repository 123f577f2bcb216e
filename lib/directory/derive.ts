/**
 * Source record → API object. Pure: the same record, `asOf` and options always give the same
 * object. The rules live in their own modules (phone, name, membership, coverage); import them
 * from there.
 */
import type { ApiEmployee, ApiExternalId, ApiPerson } from "./api-schema.js";
import { selectCoverage } from "./coverage.js";
import { toApiMembership } from "./membership.js";
import type { SourceEmployee, SourceExternalId, SourcePerson } from "./source.js";

/**
 * `externalIdSystems` omitted: every external id. Present: only ids of the listed systems (an
 * empty list gives none). Order and duplicates are kept. Never filters records or people.
 */
export function selectExternalIds(
  ids: readonly SourceExternalId[],
  systems?: readonly string[],
): ApiExternalId[] {
  const wanted = systems === undefined ? ids : ids.filter((id) => systems.includes(id.system));
  return wanted.map(({ system, system_id }) => ({ system, system_id }));
}

export interface ToApiOptions {
  /** The instant the response describes: membership and coverage are derived against it. */
  readonly asOf: Date;
  readonly externalIdSystems?: readonly string[];
}

/** The complete API Employee. Every nested object is a fresh copy, never shared with `record`. */
export function toApiEmployee(record: SourceEmployee, options: ToApiOptions): ApiEmployee {
  const { demographics, contact, participation } = record;
  return {
    id: record.id,
    companyId: record.companyId,
    personId: record.personId,
    externalIds: selectExternalIds(record.externalIds, options.externalIdSystems),
    demographics: {
      firstName: demographics.firstName,
      lastName: demographics.lastName,
      dateOfBirth: demographics.dateOfBirth,
      gender: demographics.gender,
    },
    contact: {
      email: contact.email,
      phone: contact.phone,
      address: {
        line1: contact.address.line1,
        line2: contact.address.line2,
        city: contact.address.city,
        state: contact.address.state,
        postalCode: contact.address.postalCode,
      },
    },
    membership: toApiMembership(record.membership, options.asOf),
    participation:
      participation === null
        ? null
        : { decision: participation.decision, decidedAt: participation.decidedAt },
    coverage: selectCoverage(record.coverages, options.asOf),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The API Person: the person row plus the employments the caller chose (already converted). */
export function toApiPerson(person: SourcePerson, employments: readonly ApiEmployee[]): ApiPerson {
  return {
    id: person.id,
    employments: [...employments],
    createdAt: person.createdAt,
    updatedAt: person.updatedAt,
  };
}
