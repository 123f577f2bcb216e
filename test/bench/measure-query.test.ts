import { benchPrincipal } from "../../lib/bench/bench-context.js";
import { scopeCompanies } from "../../lib/bench/measure-query.js";
import type { BenchQuery } from "../../lib/bench/query-mix.js";

const key = benchPrincipal(["a", "b", "c"]);
const query = (route: BenchQuery["route"], body: BenchQuery["body"]): BenchQuery => ({
  name: "q",
  kind: "unfiltered",
  route,
  body,
});

describe("scopeCompanies", () => {
  it("is the key's companies for a persons search that names none", () => {
    expect(scopeCompanies(query("/v1/persons/search", { lastName: "smi" }), key)).toBe(3);
  });

  it("is 1 for a search that names a company: every employees search, a company-scoped persons one", () => {
    expect(scopeCompanies(query("/v1/employees/search", { companyId: "a" }), key)).toBe(1);
    expect(scopeCompanies(query("/v1/persons/search", { companyId: "b" }), key)).toBe(1);
  });
});
