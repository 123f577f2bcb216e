/**
 * What the load test takes of a running directory, read through the store's port: the companies
 * its keys name that hold employee records (largest first), records of the two largest to pick
 * the query mix's names, phones and persons from, and the true counts the mix's deep pages need.
 */
import type { MixSource } from "../bench/query-mix.js";
import type { ListedKey } from "../keys/key-admin.js";
import { employmentFilter } from "../search/matching.js";
import type { DirectoryReader } from "../store/port.js";

/** Records read from each of the two largest companies (default); the values are picked among them. */
const SAMPLE_RECORDS = 2_000;
const PAGE = 500;

export interface DirectorySample extends MixSource {
  /** Employee records of the sampled companies, all of them. */
  readonly records: number;
}

/** The companies the active keys may read, each once, sorted. */
export function companiesOfKeys(keys: readonly ListedKey[]): string[] {
  const active = keys.filter((key) => key.status === "active");
  return [...new Set(active.flatMap((key) => key.companies))].sort();
}

export async function sampleDirectory(
  reader: DirectoryReader,
  companies: readonly string[],
  sampleRecords = SAMPLE_RECORDS,
): Promise<DirectorySample> {
  const employees = (companyId: string, offset: number, limit: number) =>
    reader.employees({ filter: employmentFilter([companyId], {}), created: {}, offset, limit });
  const totals = new Map<string, number>();
  for (const companyId of companies) {
    const { total } = await employees(companyId, 0, 1);
    if (total > 0) totals.set(companyId, total);
  }
  const recordsOf = (companyId: string) => totals.get(companyId) ?? 0;
  const companyIds = [...totals.keys()].sort((a, b) => recordsOf(b) - recordsOf(a) || (a < b ? -1 : 1));
  if (companyIds.length < 2)
    throw new Error(
      `the load test needs two companies with employee records that the server's keys name; it found ${companyIds.length === 0 ? "none" : companyIds.join(", ")}`,
    );
  const sampled = [];
  for (const companyId of companyIds.slice(0, 2)) {
    const wanted = Math.min(sampleRecords, recordsOf(companyId));
    for (let offset = 0; offset < wanted; offset += PAGE)
      sampled.push(...(await employees(companyId, offset, Math.min(PAGE, wanted - offset))).items);
  }
  const { total: persons } = await reader.persons({
    filter: employmentFilter(companyIds, {}),
    readable: new Set(companyIds),
    created: {},
    offset: 0,
    limit: 1,
  });
  return {
    summary: { companyIds, persons },
    data: { employees: sampled },
    recordsOf,
    records: companyIds.reduce((sum, companyId) => sum + recordsOf(companyId), 0),
  };
}
