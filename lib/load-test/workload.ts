/**
 * The load test's request mix: the benchmark's ten searches (lib/bench/query-mix.ts) and the
 * greeting with a generous key, a narrower key's search, three requests whose error is the
 * expected answer (400, 401, 403), and, on a connection of its own, a key with a small throttle.
 * Each kind says which statuses are expected; anything else is a failure of the run. It is built
 * from a generated dataset, or from a sample of a running directory (directory-sample.ts).
 */
import { type MixSource, queryMix } from "../bench/query-mix.js";

export type LoadKeyId = "generous" | "narrow" | "throttled";

export interface LoadKeySpec {
  readonly id: LoadKeyId;
  readonly companies: readonly string[];
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
}

export interface RequestKind {
  readonly name: string;
  /** Which key sends it; undefined for a key no one issued. */
  readonly key: LoadKeyId | "unknown";
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly body?: string;
  readonly expected: readonly number[];
}

/** Far above anything two cores can serve: these keys must never see a 429. */
const GENEROUS_THROTTLE = { rateLimit: 1_000_000, burstLimit: 1_000_000 } as const;

export function loadKeys(dataset: MixSource, throttled: LoadKeySpec["throttle"]): LoadKeySpec[] {
  const companies = dataset.summary.companyIds;
  const [first, second] = companies;
  if (first === undefined || second === undefined)
    throw new Error("the load test needs at least two companies");
  return [
    { id: "generous", companies, throttle: GENEROUS_THROTTLE },
    { id: "narrow", companies: [second], throttle: GENEROUS_THROTTLE },
    { id: "throttled", companies: [first], throttle: throttled },
  ];
}

/** The cycle the generous connections repeat: searches weighted as partners use them. */
export function mainWorkload(dataset: MixSource): RequestKind[] {
  const [first, second] = dataset.summary.companyIds;
  if (first === undefined || second === undefined)
    throw new Error("the load test needs at least two companies");
  const ok = [200] as const;
  const searches: RequestKind[] = queryMix(dataset).map((query) => ({
    name: query.name,
    key: "generous",
    method: "POST",
    path: query.route,
    body: JSON.stringify(query.body),
    expected: ok,
  }));
  return [
    ...searches,
    { name: "greeting", key: "generous", method: "GET", path: `/v1/companies/${first}/hello`, expected: ok },
    {
      name: "narrow key: persons of its company",
      key: "narrow",
      method: "POST",
      path: "/v1/persons/search",
      body: JSON.stringify({ companyId: second, limit: 20 }),
      expected: ok,
    },
    {
      name: "expected 400: limit over 100",
      key: "generous",
      method: "POST",
      path: "/v1/employees/search",
      body: JSON.stringify({ companyId: first, limit: 101 }),
      expected: [400],
    },
    {
      name: "expected 403: company out of scope",
      key: "narrow",
      method: "POST",
      path: "/v1/employees/search",
      body: JSON.stringify({ companyId: first }),
      expected: [403],
    },
    {
      name: "expected 401: unknown key",
      key: "unknown",
      method: "GET",
      path: `/v1/companies/${first}/hello`,
      expected: [401],
    },
  ];
}

/** What the throttled key sends, faster than its rate: 200 while it has tokens, 429 otherwise. */
export function throttledWorkload(dataset: MixSource): RequestKind[] {
  const [first] = dataset.summary.companyIds;
  if (first === undefined) throw new Error("the load test needs a company");
  return [
    {
      name: "throttled key: employees first page",
      key: "throttled",
      method: "POST",
      path: "/v1/employees/search",
      body: JSON.stringify({ companyId: first, limit: 10 }),
      expected: [200, 429],
    },
  ];
}
