/**
 * What `npm run directory -- repair` rebuilds, as a load: every derived item of a company or a
 * scope partition visible at the load's generation (order blocks and indexes, name postings,
 * census, marker: sort keys from 0x08 on) is superseded, damaged or not, so the load's derive
 * writes them all again from the entries (derive-orders.ts, derive-grams.ts, derive-scopes.ts).
 * But a company's postings: they carry their names entry's generation, so the derive writes each
 * over the one stored and supersedes the rest (derive-grams.ts, posted whole).
 */
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { DIRECTORY_ATTR as A } from "../tables.js";
import { betweenQuery, bytesOf, keyOf, queryPages } from "./batch.js";
import { writeInPieces } from "./derive-orders.js";
import {
  companyOfPartition,
  genOf,
  gramCensusGenOf,
  isCompanyPartition,
  isGramCensusSort,
  isPostingSort,
  type PartitionKey,
  type SortKey,
  visibleAt,
} from "./layout.js";
import type { ChunkContext, ChunkWriter } from "./load-chunk.js";
import { Writes } from "./load-plan.js";

/** Sort keys of a partition's derived items: blocks (0x08, 0x09) to index parts (0x0e). */
const DERIVED = { low: Uint8Array.of(0x08) as SortKey, high: Uint8Array.of(0x0e, 0xff) as SortKey };

/** The generation of a derived item, or undefined for one the derive rewrites in place (a company's posting). */
function derivedGen(p: PartitionKey, s: SortKey): number | undefined {
  if (isCompanyPartition(p) && isPostingSort(s)) return undefined;
  return isGramCensusSort(s) ? gramCensusGenOf(s) : genOf(s);
}

/** Supersedes every derived item of partition `p` visible at the load's generation. */
export async function supersedeDerived(context: ChunkContext, writer: ChunkWriter, p: PartitionKey) {
  const pages = queryPages(context.client, betweenQuery(context.table, { p, ...DERIVED }, true));
  for await (const page of pages) {
    const writes = new Writes(context.gen);
    for (const item of page) {
      const key = keyOf(item);
      const gen = derivedGen(p, key.s);
      const x = item[A.supersededAt];
      if (gen !== undefined && visibleAt(gen, typeof x === "number" ? x : undefined, context))
        writes.supersede([key], gen);
    }
    await writeInPieces(writer, writes);
  }
}

/** Every company with an item in the table: a Scan of partition keys (it reads the whole table). */
export async function storedCompanies(context: Pick<ChunkContext, "client" | "table">): Promise<string[]> {
  const companies = new Set<string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await context.client.send(
      new ScanCommand({
        TableName: context.table,
        ProjectionExpression: "#p",
        ExpressionAttributeNames: { "#p": A.partition },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const p = bytesOf(item[A.partition]) as PartitionKey;
      if (isCompanyPartition(p)) companies.add(companyOfPartition(p));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return [...companies].sort();
}
