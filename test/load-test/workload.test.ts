import { buildDataset } from "../../lib/bench/dataset.js";
import { loadKeys, mainWorkload, throttledWorkload } from "../../lib/load-test/workload.js";
import {
  employeesSearchRequestSchema,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";

const dataset = buildDataset({ records: 400, companies: 3, seed: 1 });

describe("load-test workload", () => {
  const keys = loadKeys(dataset, { rateLimit: 5, burstLimit: 10 });
  const scope = new Map(keys.map((key) => [key.id, key.companies]));
  const kinds = [...mainWorkload(dataset), ...throttledWorkload(dataset)];

  it("gives each kind a distinct name (tallies are kept by name)", () => {
    expect(new Set(kinds.map((kind) => kind.name)).size).toBe(kinds.length);
  });

  it("sends bodies that the route's schema accepts, except the one meant to be refused", () => {
    for (const kind of kinds.filter((candidate) => candidate.method === "POST")) {
      const schema =
        kind.path === "/v1/persons/search" ? personsSearchRequestSchema : employeesSearchRequestSchema;
      const parsed = schema.safeParse(JSON.parse(kind.body ?? "{}"));
      expect({ name: kind.name, ok: parsed.success }).toEqual({
        name: kind.name,
        ok: !kind.expected.includes(400),
      });
    }
  });

  it("expects 200 exactly when the key may read the company it names", () => {
    for (const kind of kinds) {
      if (kind.key === "unknown") {
        expect(kind.expected).toEqual([401]);
        continue;
      }
      const named = kind.body
        ? (JSON.parse(kind.body) as { companyId?: string }).companyId
        : kind.path.split("/")[3];
      const readable = named === undefined || (scope.get(kind.key) ?? []).includes(named);
      if (kind.expected.includes(403)) expect(readable).toBe(false);
      else expect({ name: kind.name, readable }).toEqual({ name: kind.name, readable: true });
    }
  });

  it("lets only the throttled key expect 429, and gives the others far more than the machine serves", () => {
    for (const kind of kinds) expect(kind.expected.includes(429)).toBe(kind.key === "throttled");
    for (const key of keys.filter((candidate) => candidate.id !== "throttled"))
      expect(key.throttle.rateLimit).toBeGreaterThanOrEqual(100_000);
  });

  it("covers both searches, the greeting, and each expected error", () => {
    const paths = new Set(kinds.map((kind) => kind.path.replace(/companies\/[^/]+/, "companies/{id}")));
    expect(paths).toEqual(
      new Set(["/v1/persons/search", "/v1/employees/search", "/v1/companies/{id}/hello"]),
    );
    expect(new Set(kinds.flatMap((kind) => kind.expected))).toEqual(new Set([200, 400, 401, 403, 429]));
  });
});
