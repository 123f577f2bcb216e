/**
 * fullSync: a partner copying everything its key may read, persons with no filter, page
 * after page of `limit` 100 from offset 0 until past the total. Each page is measured, priced and
 * dropped as it comes (a million records make about 3,700 pages): only sums are kept.
 */
import type { ApiPersonsSearchResponse } from "../directory/api-schema.js";
import type { BenchContext } from "./bench-context.js";
import { employmentsByPerson, personsPageUnits } from "./floor.js";
import { timedRun } from "./measure.js";
import type { Progress } from "./progress.js";
import { PERSONS_ROUTE } from "./query-mix.js";

export interface FullSyncReport {
  readonly scopeCompanies: number;
  /** Persons returned over all pages. */
  readonly persons: number;
  readonly pages: number;
  /** Σ UTF-8 bytes of the responses' JSON. */
  readonly returnedBytes: number;
  /** Σ RCU of every page's search. */
  readonly rcu: number;
  /** Σ the floor's page part of each page. */
  readonly recordsRcu: number;
}

const SYNC_LIMIT = 100;

/** One page as the sync sees it: the answer, and the RCU its search consumed. */
export interface SyncedPage {
  readonly response: ApiPersonsSearchResponse;
  readonly rcu: number;
}

export interface SyncSource {
  readonly scopeCompanies: number;
  fetch(offset: number, limit: number): Promise<SyncedPage>;
  /** The floor's page part of a page of these persons. */
  recordsUnits(personIds: readonly string[]): number;
}

/** Pages from offset 0 until past the total, summed; `onPage(done, pages)` after each. */
export async function fullSync(
  source: SyncSource,
  onPage: (done: number, pages: number) => void = () => {},
): Promise<FullSyncReport> {
  const sums = { persons: 0, pages: 0, returnedBytes: 0, rcu: 0, recordsRcu: 0 };
  let total = 0;
  for (let offset = 0; offset === 0 || offset < total; offset += SYNC_LIMIT) {
    const { response, rcu } = await source.fetch(offset, SYNC_LIMIT);
    total = response.pagination.total;
    sums.persons += response.persons.length;
    sums.pages += 1;
    sums.returnedBytes += Buffer.byteLength(JSON.stringify(response), "utf8");
    sums.rcu += rcu;
    sums.recordsRcu += source.recordsUnits(response.persons.map((person) => person.id));
    onPage(sums.pages, Math.max(1, Math.ceil(total / SYNC_LIMIT)));
  }
  // The directory does not change during the run: every person in scope comes exactly once.
  if (sums.persons !== total) throw new Error(`full sync: ${sums.persons} persons in pages, total ${total}`);
  return { scopeCompanies: source.scopeCompanies, ...sums };
}

/** The sync source of the bench: the real persons search with the context's key. */
function benchSyncSource(context: BenchContext): SyncSource {
  const { dataset, principal } = context;
  const pageInput = {
    authorized: principal.companies,
    persons: dataset.personsById,
    byPerson: employmentsByPerson(dataset.data.employees),
  };
  return {
    scopeCompanies: principal.companies.size,
    async fetch(offset, limit) {
      const query = {
        name: "full sync",
        kind: "page",
        route: PERSONS_ROUTE,
        body: { offset, limit },
      } as const;
      const { response, rcu } = await timedRun(context, query, "real");
      if (!("persons" in response)) throw new Error("full sync: not a persons answer");
      return { response, rcu };
    },
    recordsUnits: (ids) => personsPageUnits(pageInput, ids),
  };
}

export async function runFullSync(context: BenchContext, progress: Progress): Promise<FullSyncReport> {
  let started = false;
  return fullSync(benchSyncSource(context), (done, pages) => {
    if (!started) progress.start(`full sync: ${pages} pages of ${SYNC_LIMIT}`.padEnd(52), pages);
    started = true;
    progress.update(done);
    if (done === pages) progress.finish();
  });
}
