/**
 * Scopes: the sets of companies keys read, for which a store may keep its persons in one order
 * (`LoadSession.keepScopes`). A single company is no scope: its own orders serve it.
 */

/** Scopes hold two or more companies. */
const MIN_SCOPE_COMPANIES = 2;

/** The distinct scopes of company lists: each sorted without repeats, lists of one company left out; sorted. */
export function distinctScopes(lists: readonly (readonly string[])[]): string[][] {
  const scopes = new Map<string, string[]>();
  for (const list of lists) {
    const companies = [...new Set(list)].sort();
    if (companies.length >= MIN_SCOPE_COMPANIES) scopes.set(companies.join("\n"), companies);
  }
  return [...scopes.keys()].sort().map((text) => scopes.get(text) as string[]);
}
