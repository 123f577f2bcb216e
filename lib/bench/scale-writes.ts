/**
 * What the scale profile's writes cost: each derived structure is kept by the loads, so a change
 * writes in proportion to itself. Measured on the loaded bench tables, after the queries: a
 * one-record change (a merge load renaming one record of the largest company) and a key's scope
 * change (the 50-company key given one company more: the new scope takes over the old one's
 * partition). The full load's figures come from openBench.
 */

import { keepScopes } from "../load/keep-scopes.js";
import { loadData } from "../load/load-file.js";
import { dynamoDirectory } from "../store/dynamo/index.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { benchClient } from "./bench-client.js";
import { type WriteFigures, writeFigures } from "./capacity-recorder.js";
import type { Dataset } from "./dataset.js";

export interface ScaleWritesReport {
  readonly oneRecordChange: WriteFigures;
  /** `companies`: the changed key's companies after the change. */
  readonly scopeChange: WriteFigures & { readonly companies: number };
}

/** Runs `work` on a directory over a fresh client; its figures. */
async function measuredWrite(
  endpoint: string,
  table: string,
  work: (directory: ReturnType<typeof dynamoDirectory>) => Promise<unknown>,
): Promise<WriteFigures> {
  const client = benchClient(endpoint);
  try {
    return await writeFigures(client, () =>
      work(dynamoDirectory(documentClientFor(client), table, { writer: { graceMs: 0 } })),
    );
  } finally {
    client.destroy();
  }
}

/** The keys with the second one (the 50-company key) given the first company by rank it lacks. */
export function widenedKeys(keys: readonly (readonly string[])[], ranked: readonly string[]): string[][] {
  const [first, second, ...rest] = keys;
  if (!first || !second)
    throw new Error("scale writes: the run needs a key of one and one of several companies");
  const added = ranked.find((company) => !second.includes(company));
  if (added === undefined) throw new Error("scale writes: the 50-company key already reads every company");
  return [[...first], [...second, added], ...rest.map((key) => [...key])];
}

export async function measureScaleWrites(
  place: { endpoint: string; table: string },
  dataset: Dataset,
  keys: readonly (readonly string[])[],
  ranked: readonly string[],
): Promise<ScaleWritesReport> {
  const [largest] = ranked;
  const record = dataset.data.employees.find((employee) => employee.companyId === largest);
  if (!record) throw new Error("scale writes: the largest company has no record");
  const { demographics } = record;
  const renamed = {
    ...record,
    demographics: { ...demographics, firstName: `${demographics.firstName ?? ""}x` },
  };
  const oneRecordChange = await measuredWrite(place.endpoint, place.table, (directory) =>
    loadData({ persons: [], employees: [renamed] }, directory, "merge"),
  );
  const widened = widenedKeys(keys, ranked);
  const scopeChange = await measuredWrite(place.endpoint, place.table, (directory) =>
    keepScopes(directory, widened),
  );
  return { oneRecordChange, scopeChange: { ...scopeChange, companies: widened[1]?.length ?? 0 } };
}
