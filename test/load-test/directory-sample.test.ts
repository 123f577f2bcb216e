import { buildDataset, type Dataset } from "../../lib/bench/dataset.js";
import type { ListedKey } from "../../lib/keys/key-admin.js";
import { companiesOfKeys, sampleDirectory } from "../../lib/load-test/directory-sample.js";
import { mainWorkload } from "../../lib/load-test/workload.js";
import { memoryDirectory } from "../../lib/store/memory/memory-directory.js";

const directoryOf = (dataset: Dataset) =>
  memoryDirectory({
    persons: new Map(dataset.data.persons.map((person) => [person.id, person])),
    employees: new Map(dataset.data.employees.map((employee) => [employee.id, employee])),
  });

const key = (keyId: string, companies: string[], status: ListedKey["status"] = "active"): ListedKey => ({
  keyId,
  keyHash: `hash-${keyId}`,
  partner: keyId,
  operations: ["persons.search"],
  companies,
  throttle: { rateLimit: 1, burstLimit: 1 },
  usageKey: keyId,
  status,
});

const recordsOf = (dataset: Dataset, companyId: string) =>
  dataset.data.employees.filter((record) => record.companyId === companyId).length;

describe("the load test's sample of a running directory", () => {
  it("takes the companies of the active keys, each once", () => {
    const keys = [key("a", ["c2", "c1"]), key("b", ["c1", "c3"]), key("c", ["c9"], "revoked")];
    expect(companiesOfKeys(keys)).toEqual(["c1", "c2", "c3"]);
  });

  it("keeps the named companies that hold records, largest first, with their true counts", async () => {
    const dataset = buildDataset({ records: 400, companies: 3, seed: 1 });
    const named = [...dataset.summary.companyIds, "not-loaded"];
    const sample = await sampleDirectory(directoryOf(dataset), named);

    const bySize = [...dataset.summary.companyIds].sort(
      (a, b) => recordsOf(dataset, b) - recordsOf(dataset, a) || (a < b ? -1 : 1),
    );
    expect(sample.summary.companyIds).toEqual(bySize);
    expect(sample.records).toBe(400);
    for (const companyId of named) expect(sample.recordsOf?.(companyId)).toBe(recordsOf(dataset, companyId));
    const linked = new Set(dataset.data.employees.flatMap((record) => record.personId ?? []));
    expect(sample.summary.persons).toBe(linked.size);
    const sampledCompanies = new Set(sample.data.employees.map((record) => record.companyId));
    expect(sampledCompanies).toEqual(new Set(bySize.slice(0, 2)));
  });

  it("reads a sample of a large company, and pages the mix by its true count", async () => {
    const dataset = buildDataset({ records: 1600, companies: 2, seed: 2 });
    // Past one page of the reads (500), and well under the largest company's records.
    const sample = await sampleDirectory(directoryOf(dataset), dataset.summary.companyIds, 520);
    const [first = ""] = sample.summary.companyIds;
    const ofFirst = sample.data.employees.filter((record) => record.companyId === first).length;
    expect(ofFirst).toBe(520);
    const deep = mainWorkload(sample).find((kind) => kind.name === "employees: company, deep page");
    const { offset } = JSON.parse(deep?.body ?? "{}") as { offset: number };
    expect(offset).toBeGreaterThan(ofFirst);
    expect(offset).toBeLessThan(recordsOf(dataset, first));
  });

  it("refuses a directory where fewer than two named companies hold records", async () => {
    const dataset = buildDataset({ records: 200, companies: 2, seed: 1 });
    const [only = ""] = dataset.summary.companyIds;
    await expect(sampleDirectory(directoryOf(dataset), [only, "not-loaded"])).rejects.toThrow(
      `the load test needs two companies with employee records that the server's keys name; it found ${only}`,
    );
  });
});
