import { readFileSync } from "node:fs";
import { demoCompanyIds, demoDataText, demoRecords } from "../../lib/directory/demo-data.js";
import { toApiEmployee } from "../../lib/directory/derive.js";
import { normalizeName } from "../../lib/directory/name.js";
import { normalizePhone } from "../../lib/directory/phone.js";
import { parseDataFile } from "../../lib/directory/source.js";

const DEFAULT = { companies: 4, employees: 300, seed: 1 };

describe("demoCompanyIds", () => {
  it("names the first companies with slugs, then company-NNN", () => {
    expect(demoCompanyIds(4)).toEqual([
      "acme-home-care",
      "bluebird-health",
      "cedar-grove-caregivers",
      "dayspring-nursing",
    ]);
    expect(demoCompanyIds(10).slice(7)).toEqual(["harborlight-hospice", "company-009", "company-010"]);
    expect(demoCompanyIds(1000).at(-1)).toBe("company-1000");
  });
});

describe("demo data generator", () => {
  it("is deterministic: same seed, byte-identical file", () => {
    expect(demoDataText(DEFAULT, "json")).toBe(demoDataText(DEFAULT, "json"));
    expect(demoDataText(DEFAULT, "ndjson")).toBe(demoDataText(DEFAULT, "ndjson"));
    expect(demoDataText({ ...DEFAULT, seed: 2 }, "json")).not.toBe(demoDataText(DEFAULT, "json"));
  });

  it("matches the committed local data (npm run demo-data -- --companies 4 --employees 300 --seed 1)", () => {
    const committed = readFileSync(new URL("../../lib/local/demo/data.json", import.meta.url), "utf8");
    expect(committed).toBe(demoDataText(DEFAULT, "json"));
  });

  it.each([
    { companies: 1, employees: 1, seed: 0 },
    { companies: 1, employees: 50, seed: 7 },
    { companies: 3, employees: 500, seed: 42 },
    { companies: 12, employees: 2000, seed: 4_294_967_295 },
  ])("writes files that pass parseDataFile, with exactly the employees asked for: %j", (options) => {
    const json = parseDataFile(demoDataText(options, "json"));
    const ndjson = parseDataFile(demoDataText(options, "ndjson"));
    expect(json.employees).toHaveLength(options.employees);
    expect(ndjson).toEqual(json);
    const companies = new Set(demoCompanyIds(options.companies));
    expect(json.employees.every((e) => companies.has(e.companyId))).toBe(true);
  });
});

describe("demo data content", () => {
  const data = parseDataFile(demoDataText({ companies: 6, employees: 3000, seed: 1 }, "json"));
  const asOf = new Date("2026-11-22T00:00:00Z");
  const api = data.employees.map((e) => toApiEmployee(e, { asOf }));
  const byPerson = Map.groupBy(
    data.employees.filter((e) => e.personId !== null),
    (e) => e.personId,
  );

  it("has about 8% employee records without a person", () => {
    const share = data.employees.filter((e) => e.personId === null).length / data.employees.length;
    expect(share).toBeGreaterThan(0.05);
    expect(share).toBeLessThan(0.11);
  });

  it("gives persons 1-4 employments across companies, and some duplicate records", () => {
    const companyCounts = [...byPerson.values()].map(
      (records) => new Set(records.map((r) => r.companyId)).size,
    );
    expect(Math.min(...companyCounts)).toBe(1);
    expect(Math.max(...companyCounts)).toBe(4);
    expect(data.persons.every((p) => byPerson.has(p.id))).toBe(true);
    const duplicates = [...byPerson.values()].filter(
      (records) => new Set(records.map((r) => r.companyId)).size < records.length,
    );
    expect(duplicates.length).toBeGreaterThan(5);
  });

  it("has varied, shared and non-ASCII names that need NFKC", () => {
    const names = data.employees.flatMap((e) => [e.demographics.firstName, e.demographics.lastName]);
    const text = names.join(" ");
    for (const piece of ["é", "ß", "ﬁ", "ﬃ", "Ｓ"]) expect(text).toContain(piece);
    expect(names.some((n) => n !== null && normalizeName(n) !== n.toLowerCase())).toBe(true);
    const surnames = Map.groupBy(data.employees, (e) => e.demographics.lastName);
    expect([...surnames.values()].some((records) => new Set(records.map((r) => r.personId)).size > 20)).toBe(
      true,
    );
  });

  it("has every membership status, including expired invitations", () => {
    const statuses = new Set(api.map((e) => e.membership.status));
    expect([...statuses].sort()).toEqual([
      "active",
      "invited_expired",
      "invited_pending",
      "not_invited",
      "revoked_access",
    ]);
    expect(data.employees.some((e) => e.membership.invitation?.status === "expired")).toBe(true);
  });

  it("has several coverage records per employee, terminated ones, and none at all", () => {
    expect(data.employees.some((e) => e.coverages.length >= 3)).toBe(true);
    expect(data.employees.some((e) => e.coverages.length === 0)).toBe(true);
    expect(data.employees.some((e) => e.coverages.some((c) => c.status === "terminated"))).toBe(true);
    expect(data.employees.some((e) => e.coverages.some((c) => c.startsAt.includes("T")))).toBe(true);
    expect(new Set(api.map((e) => e.coverage?.status ?? null)).size).toBe(6);
  });

  it("has phones in many punctuations, some unusable, and both external id systems", () => {
    const phones = data.employees.map((e) => e.contact.phone).filter((p): p is string => p !== null);
    const shapes = new Set(phones.map((p) => p.replace(/\d/g, "9")));
    expect(shapes.size).toBeGreaterThanOrEqual(10);
    expect(phones.some((p) => !normalizePhone(p).ok)).toBe(true);
    expect(data.employees.some((e) => e.contact.phone === null)).toBe(true);
    const systems = new Set(data.employees.flatMap((e) => e.externalIds.map((id) => id.system)));
    expect([...systems].sort()).toEqual(["hhaexchange", "payroll_system"]);
  });

  it("spreads createdAt over years, with identical timestamps and numeric offsets", () => {
    const created = data.employees.map((e) => e.createdAt);
    expect(new Set(created.map((c) => c.slice(0, 4)))).toEqual(
      new Set(["2022", "2023", "2024", "2025", "2026"]),
    );
    expect(new Set(created).size).toBeLessThan(created.length - 100);
    expect(created.some((c) => /[+-]\d\d:\d\d$/.test(c))).toBe(true);
  });

  it("yields each person before their employee records", () => {
    const seen = new Set<string>();
    for (const record of demoRecords({ companies: 3, employees: 200, seed: 3 })) {
      if (record.kind === "person") seen.add(record.value.id);
      else if (record.value.personId !== null) expect(seen.has(record.value.personId)).toBe(true);
    }
  });
});
