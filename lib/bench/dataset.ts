/**
 * The benchmark's dataset: the demo generator's records (deterministic for a seed), validated by
 * the source schemas exactly as a loaded file is, so ids are lower-cased and defaults applied.
 */
import type { CompanySizes } from "../directory/company-sizes.js";
import { demoCompanyIds, demoRecords } from "../directory/demo-data.js";
import {
  type DataFile,
  type SourceEmployee,
  SourceEmployeeSchema,
  type SourcePerson,
  SourcePersonSchema,
} from "../directory/source.js";

export interface DatasetOptions {
  /** Employee records. */
  readonly records: number;
  readonly companies: number;
  readonly seed: number;
  /** Evenly (default) or Zipf-like (the scale profile). */
  readonly companySizes?: CompanySizes;
}

export interface DatasetSummary extends DatasetOptions {
  readonly persons: number;
  /** Employee records with no person. */
  readonly unlinked: number;
  readonly companyIds: readonly string[];
  /** Records of the largest company. */
  readonly largestCompany: number;
}

export interface Dataset {
  readonly data: DataFile;
  readonly summary: DatasetSummary;
  readonly personsById: ReadonlyMap<string, SourcePerson>;
}

export const DEFAULT_DATASET: DatasetOptions = { records: 100_000, companies: 50, seed: 1 };

/**
 * The scale profile's. Zipf exponent 1 over 1,000 companies: the largest weighs
 * 1/H(1000), about 13% of the companies drawn (a person's employers are distinct, so a little less
 * of the records).
 */
export const SCALE_DATASET: DatasetOptions = {
  records: 1_000_000,
  companies: 1_000,
  seed: 1,
  companySizes: { zipf: 1 },
};

/** The required skew: the largest company holds at least 5% of the records. */
const MIN_LARGEST_SHARE = 0.05;

/** Fails the run when the generated directory is not as skewed as the scale profile needs. */
export function assertSkewed(summary: DatasetSummary): void {
  const share = summary.largestCompany / summary.records;
  if (!(share >= MIN_LARGEST_SHARE))
    throw new Error(
      `the largest company holds ${(share * 100).toFixed(2)}% of the ${summary.records} records; ` +
        `the scale profile needs at least ${MIN_LARGEST_SHARE * 100}%`,
    );
}

export function buildDataset(options: DatasetOptions): Dataset {
  const data: DataFile = { persons: [], employees: [] };
  for (const record of demoRecords({
    companies: options.companies,
    employees: options.records,
    seed: options.seed,
    ...(options.companySizes ? { companySizes: options.companySizes } : {}),
  })) {
    if (record.kind === "person") data.persons.push(SourcePersonSchema.parse(record.value));
    else data.employees.push(SourceEmployeeSchema.parse(record.value));
  }
  return {
    data,
    personsById: new Map(data.persons.map((person) => [person.id, person])),
    summary: {
      ...options,
      persons: data.persons.length,
      unlinked: data.employees.filter((record) => record.personId === null).length,
      companyIds: demoCompanyIds(options.companies),
      largestCompany: largestCompany(data),
    },
  };
}

/** Each company's employee records; a company with none is absent. */
export function recordsPerCompany(records: readonly SourceEmployee[]): Map<string, number> {
  const perCompany = new Map<string, number>();
  for (const record of records) perCompany.set(record.companyId, (perCompany.get(record.companyId) ?? 0) + 1);
  return perCompany;
}

function largestCompany(data: DataFile): number {
  return Math.max(0, ...recordsPerCompany(data.employees).values());
}

/** The report's dataset section (each profile adds its run time). */
export function datasetReport(summary: DatasetSummary) {
  return {
    records: summary.records,
    companies: summary.companies,
    seed: summary.seed,
    ...(summary.companySizes ? { companySizes: summary.companySizes } : {}),
    persons: summary.persons,
    unlinkedRecords: summary.unlinked,
    largestCompany: summary.largestCompany,
    generator: "lib/directory/demo-data.ts",
  };
}
