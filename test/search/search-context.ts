/**
 * What a search use case takes besides its request, fixed for the search tests: the moment it
 * answers as of, and the principal of a key scope. Apart from property-harness.ts so that unit
 * files need not import the engines.
 */
import type { Principal } from "../../lib/auth/principal.js";

export const AS_OF = new Date("2025-01-05T12:00:00Z");

export function principalOf(companies: ReadonlySet<string>): Principal {
  return {
    keyId: "key_ReferenceModel00",
    partner: "reference model",
    operations: new Set(["persons.search", "employees.search"]),
    companies,
  };
}
