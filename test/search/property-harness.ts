/**
 * What the reference-model property tests share: the fixed asOf, the principal of a key scope,
 * and loading a generated directory into the suite's table. Every run also compares deliberate
 * requests (random-directory.ts `deliberateRequests`), so no seed compares only empty answers.
 */
import type { Principal } from "../../lib/auth/principal.js";
import type { DirectoryReader } from "../../lib/store/port.js";
import { loadedDirectory } from "../support/directory-store.js";
import type { EngineContext } from "../support/engines.js";
import type { Directory } from "./random-directory.js";

export const AS_OF = new Date("2025-01-05T12:00:00Z");
export const NUM_RUNS = 50;
export const PROPERTY_TIMEOUT_MS = 150_000;

export function principalOf(companies: ReadonlySet<string>): Principal {
  return {
    keyId: "key_ReferenceModel00",
    partner: "reference model",
    operations: new Set(["persons.search", "employees.search"]),
    companies,
  };
}

export async function loaded(context: EngineContext, directory: Directory): Promise<DirectoryReader> {
  return loadedDirectory(context, directory.data);
}
