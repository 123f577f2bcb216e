/**
 * How a search reads its page of employee records, priced as DynamoDB bills: a Query over a run
 * of adjacent records costs their summed size in 4 KB units, while BatchGetItem bills every
 * record at least one unit. A page whose records lie close together is cheaper as a run, even
 * with the records between them read too; a scattered page is cheaper one by one.
 */

/** Read capacity of one eventually consistent read of `bytes` (one request or one batch item). */
export const readRcu = (bytes: number): number => Math.max(1, Math.ceil(bytes / 4096)) * 0.5;

export type PageReadPlan = { readonly kind: "run"; readonly length: number } | { readonly kind: "each" };

/**
 * `sizes`: the record size of every entry the search read, in order; `page`: the positions of the
 * page's records among them, ascending. A run reads from the first page record to the last.
 */
export function pageReadPlan(sizes: readonly number[], page: readonly number[]): PageReadPlan {
  const first = page[0];
  const last = page.at(-1);
  if (first === undefined || last === undefined) return { kind: "each" };
  let runBytes = 0;
  for (let i = first; i <= last; i += 1) runBytes += sizes[i] ?? 0;
  const eachRcu = page.reduce((sum, i) => sum + readRcu(sizes[i] ?? 0), 0);
  return readRcu(runBytes) <= eachRcu ? { kind: "run", length: last - first + 1 } : { kind: "each" };
}
