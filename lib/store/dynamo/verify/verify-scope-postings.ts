/**
 * What a posted scope's name postings must index (pure, for verify-grams.ts): for each person
 * with names in the scope's companies, one names entry of their distinct pairs there, at the
 * generation scope-postings.ts gives it. A scope's persons are found by company, so verifying
 * many scopes does not go over every bundle once a scope.
 */
import type { NamePair } from "../../../search/matching.js";
import type { ScopeMarker } from "../model/index.js";
import { bundleSort, FAMILY, personPartition } from "../model/index.js";
import { scopeNamePairs, scopePostingGen } from "../structures/index.js";
import type { BundleSummary } from "./summaries.js";
import type { NamesEntry } from "./verify-grams.js";

type Person = readonly [personId: string, bundle: BundleSummary];

/** The persons with names entries in each company, as positions in `people`. */
function positionsByCompany(people: readonly Person[]): Map<string, number[]> {
  const byCompany = new Map<string, number[]>();
  people.forEach(([, bundle], position) => {
    for (const company of bundle.pairs.keys()) {
      const positions = byCompany.get(company);
      if (positions) positions.push(position);
      else byCompany.set(company, [position]);
    }
  });
  return byCompany;
}

/**
 * The names entries of every posted scope (those with a marker), by owner (the scope's home);
 * within a scope, persons come in the order of `bundles`, so the first problem named is the same
 * on every run.
 */
export function* scopeNamesEntries(
  scopes: ReadonlyMap<string, { readonly companies: readonly string[] }>,
  markers: ReadonlyMap<string, ScopeMarker>,
  bundles: ReadonlyMap<string, BundleSummary>,
): Generator<NamesEntry> {
  const people = [...bundles];
  const byCompany = positionsByCompany(people);
  for (const [owner, scope] of scopes) {
    const marker = markers.get(owner);
    if (marker === undefined) continue;
    const positions = new Set(scope.companies.flatMap((company) => byCompany.get(company) ?? []));
    for (const position of [...positions].sort((a, b) => a - b)) {
      const [personId, bundle] = people[position] as Person;
      const lists = scope.companies.map(
        (company) => JSON.parse(bundle.pairs.get(company)?.get(FAMILY.personNames) ?? "[]") as NamePair[],
      );
      const pairs = scopeNamePairs(lists);
      if (pairs.length === 0) continue;
      const key = { p: personPartition(personId), s: bundleSort(bundle.gen, 0) };
      const gen = scopePostingGen({ gen: bundle.entries, employees: [...bundle.records.values()] }, marker);
      yield { company: owner, order: bundle.personOrder, gen, pairs: JSON.stringify(pairs), key };
    }
  }
}
