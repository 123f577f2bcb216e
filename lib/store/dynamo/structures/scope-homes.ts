/**
 * Where each kept scope lives (docs/data-model.md, "Scope changes"), pure. A scope's order and name
 * postings live in a partition named by a scope id, its **home**. When the keys change, a new scope
 * takes over the home of a dropped scope that shares more companies with it than the two differ by:
 * a key widened by one company then costs the persons of that company, not the whole scope again.
 * Every other new scope gets a partition of its own.
 */
import { compareText } from "../../bytes.js";
import { type ScopeId, scopeIdOf } from "../model/index.js";
import type { RegisteredScope } from "./scope-registry.js";

/** A new scope and its home; `from`, when it takes over a dropped scope's. */
interface NewScope {
  readonly id: ScopeId;
  readonly companies: readonly string[];
  readonly home: ScopeId;
  readonly from?: { readonly id: ScopeId; readonly scope: RegisteredScope };
}

export interface ScopeHousing {
  readonly added: readonly NewScope[];
  /** Dropped scopes no new one took over: their registry version and home's items are superseded. */
  readonly dropped: readonly { readonly id: ScopeId; readonly scope: RegisteredScope }[];
  /** Dropped scopes a new one took over: only their registry version is superseded. */
  readonly replaced: readonly { readonly id: ScopeId; readonly scope: RegisteredScope }[];
}

/** Companies in both, and in only one of the two. */
function overlap(a: readonly string[], b: readonly string[]) {
  const inB = new Set(b);
  const common = a.filter((company) => inB.has(company)).length;
  return { common, differing: a.length + b.length - 2 * common };
}

/**
 * Houses the wanted scopes, given those stored: each new scope takes over the dropped scope that
 * differs from it by the fewest companies, provided they share more companies than they differ by
 * (else writing it whole costs less); the closest pairs first, ties by id.
 */
export function houseScopes(
  stored: ReadonlyMap<ScopeId, RegisteredScope>,
  wanted: ReadonlyMap<ScopeId, readonly string[]>,
): ScopeHousing {
  const fresh = [...wanted].filter(([id]) => !stored.has(id));
  const gone = [...stored].filter(([id]) => !wanted.has(id));
  const pairs = fresh.flatMap(([id, companies]) =>
    gone.flatMap(([goneId, scope]) => {
      const { common, differing } = overlap(companies, scope.companies);
      return common > differing ? [{ id, goneId, differing }] : [];
    }),
  );
  pairs.sort(
    (a, b) => a.differing - b.differing || compareText(a.id, b.id) || compareText(a.goneId, b.goneId),
  );
  const takenOver = new Map<ScopeId, ScopeId>();
  const taken = new Set<ScopeId>();
  for (const { id, goneId } of pairs) {
    if (takenOver.has(id) || taken.has(goneId)) continue;
    takenOver.set(id, goneId);
    taken.add(goneId);
  }
  const homesInUse = new Set<ScopeId>();
  for (const [id, scope] of stored) if (wanted.has(id) || taken.has(id)) homesInUse.add(scope.home);
  const added = fresh.map(([id, companies]): NewScope => {
    const goneId = takenOver.get(id);
    const gone = goneId && stored.get(goneId);
    if (goneId && gone) return { id, companies, home: gone.home, from: { id: goneId, scope: gone } };
    const home = freeHome(id, homesInUse);
    homesInUse.add(home);
    return { id, companies, home };
  });
  const dropped = gone.filter(([id]) => !taken.has(id)).map(([id, scope]) => ({ id, scope }));
  const replaced = gone.filter(([id]) => taken.has(id)).map(([id, scope]) => ({ id, scope }));
  return { added, dropped, replaced };
}

/**
 * A scope's own id as its home, unless another kept scope lives there (one that took it over when
 * this scope was dropped before): then an id hashed from it, the first free one.
 */
function freeHome(id: ScopeId, inUse: ReadonlySet<ScopeId>): ScopeId {
  let home = id;
  for (let n = 1; inUse.has(home); n++) home = scopeIdOf([`home ${n} of ${id}`]);
  return home;
}
