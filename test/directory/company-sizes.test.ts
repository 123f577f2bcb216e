import { companyPicker } from "../../lib/directory/company-sizes.js";
import { demoCompanyIds, demoRecords } from "../../lib/directory/demo-data.js";
import { DemoRandom } from "../../lib/directory/demo-random.js";

const companies = demoCompanyIds(1_000);

describe("company sizes", () => {
  it("evenly, draws exactly what the generator always drew (existing seeds keep their files)", () => {
    const picker = companyPicker(companies);
    const [a, b] = [new DemoRandom(7), new DemoRandom(7)];
    for (let i = 0; i < 100; i += 1) {
      expect(picker.pick(a)).toBe(b.pick(companies));
      expect(picker.sample(a, 3)).toEqual(b.sample(companies, 3));
    }
  });

  it("Zipf-like, gives rank r a share near 1/r over the sum of 1/k", () => {
    const picker = companyPicker(companies, { zipf: 1 });
    const rng = new DemoRandom(3);
    const counts = new Map<string, number>();
    const draws = 200_000;
    for (let i = 0; i < draws; i += 1) {
      const company = picker.pick(rng);
      counts.set(company, (counts.get(company) ?? 0) + 1);
    }
    const harmonic = companies.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
    for (const rank of [1, 2, 10, 100]) {
      const expected = draws / rank / harmonic;
      const seen = counts.get(companies[rank - 1] ?? "") ?? 0;
      // Five standard deviations of a binomial count: a bound no fair draw misses.
      expect(Math.abs(seen - expected)).toBeLessThan(5 * Math.sqrt(expected) + 1);
    }
  });

  it("samples distinct companies, by weight", () => {
    const picker = companyPicker(companies.slice(0, 4), { zipf: 1.2 });
    const rng = new DemoRandom(11);
    for (let i = 0; i < 1_000; i += 1) {
      const sample = picker.sample(rng, 1 + (i % 6));
      expect(new Set(sample).size).toBe(sample.length);
      expect(sample.length).toBe(Math.min(4, 1 + (i % 6)));
    }
  });

  it("makes the largest of 1,000 companies hold more than 5% of the demo records", () => {
    const perCompany = new Map<string, number>();
    let records = 0;
    for (const record of demoRecords({
      companies: 1_000,
      employees: 20_000,
      seed: 5,
      companySizes: { zipf: 1 },
    })) {
      if (record.kind !== "employee") continue;
      records += 1;
      perCompany.set(record.value.companyId, (perCompany.get(record.value.companyId) ?? 0) + 1);
    }
    expect(records).toBe(20_000);
    const largest = Math.max(...perCompany.values());
    expect(perCompany.get(companies[0] ?? "")).toBe(largest);
    expect(largest / records).toBeGreaterThan(0.05);
  });

  it("refuses an exponent outside (0, 3] and an empty list", () => {
    expect(() => companyPicker(companies, { zipf: 0 })).toThrow(/Zipf exponent/);
    expect(() => companyPicker(companies, { zipf: 4 })).toThrow(/Zipf exponent/);
    expect(() => companyPicker([])).toThrow(/no companies/);
  });
});
