/** Which employments a filter accepts, and the sort and window every search applies. */
import fc from "fast-check";
import { instantKey } from "../../lib/directory/instant-key.js";
import {
  compareByCreated,
  employmentFilter,
  employmentMatches,
  employmentView,
  inCreatedRange,
} from "../../lib/search/matching.js";
import { orderKey, orderKeyParts } from "../../lib/store/binary-keys.js";
import { inOrderRange, orderRange } from "../../lib/store/order-range.js";
import { type EmployeeFields, parsedEmployee, uuidOf } from "../support/records.js";

const PERSON = uuidOf("aaaa", 1);

function entry(overrides: Partial<EmployeeFields> = {}) {
  return employmentView(
    parsedEmployee({
      id: uuidOf("eeee", 1),
      companyId: "acme",
      personId: PERSON,
      createdAt: "2024-01-01T00:00:00Z",
      firstName: "Zoë",
      lastName: "Weiß",
      phone: "(212) 555-0142",
      ...overrides,
    }),
  );
}

const filter = (
  companies: string[],
  filters: { firstName?: string; lastName?: string; phone?: string } = {},
) => employmentFilter(companies, filters);

describe("employmentMatches", () => {
  it("accepts an employment of a listed company when no other filter is set", () => {
    expect(employmentMatches(entry(), filter(["acme"]))).toBe(true);
    expect(employmentMatches(entry(), filter(["other", "acme"]))).toBe(true);
  });

  it("refuses an employment of a company not listed, however well the rest matches", () => {
    const all = { firstName: "zo", lastName: "wei", phone: "2125550142" };
    expect(employmentMatches(entry(), filter([], all))).toBe(false);
    expect(employmentMatches(entry(), filter(["acme-care", "ACME", "acm"], all))).toBe(false);
  });

  it("matches names case-insensitively as substrings after NFKC, query normalized too", () => {
    for (const firstName of ["zo", "ZOË", "oë", "Ｚｏ", "Zoe\u0308", "ë"]) {
      expect(employmentMatches(entry(), filter(["acme"], { firstName }))).toBe(true);
    }
    for (const firstName of ["zoe", "Zoë ", " zo", "x"]) {
      expect(employmentMatches(entry(), filter(["acme"], { firstName }))).toBe(false);
    }
    expect(employmentMatches(entry({ firstName: "ﬁona" }), filter(["acme"], { firstName: "FI" }))).toBe(true);
    expect(employmentMatches(entry(), filter(["acme"], { lastName: "WEISS" }))).toBe(false);
    expect(employmentMatches(entry(), filter(["acme"], { lastName: "EIß" }))).toBe(true);
  });

  it("never matches a missing name with a name filter, and ignores it without one", () => {
    const nameless = entry({ firstName: null, lastName: null });
    expect(employmentMatches(nameless, filter(["acme"], { firstName: "a" }))).toBe(false);
    expect(employmentMatches(nameless, filter(["acme"], { lastName: "a" }))).toBe(false);
    expect(employmentMatches(nameless, filter(["acme"]))).toBe(true);
  });

  it("matches the phone on its normalized digits, whatever punctuation was stored", () => {
    for (const phone of ["212.555.0142", "+1 (212) 555-0142", "12125550142", "2125550142"]) {
      expect(employmentMatches(entry({ phone }), filter(["acme"], { phone: "2125550142" }))).toBe(true);
    }
    expect(employmentMatches(entry(), filter(["acme"], { phone: "2125550143" }))).toBe(false);
  });

  it("never matches a stored phone that does not normalize, or none, with a phone filter", () => {
    for (const phone of ["212-555-014", "212-555-0142 ext 9", "2 212 555 0142", null]) {
      const stored = entry({ phone });
      expect(stored.phone).toBeNull();
      expect(employmentMatches(stored, filter(["acme"], { phone: "2125550142" }))).toBe(false);
      expect(employmentMatches(stored, filter(["acme"]))).toBe(true);
    }
  });

  it("needs every filter to hold on this one employment", () => {
    const both = { firstName: "zo", lastName: "weiß", phone: "2125550142" };
    expect(employmentMatches(entry(), filter(["acme"], both))).toBe(true);
    expect(employmentMatches(entry({ firstName: "Ann" }), filter(["acme"], both))).toBe(false);
    expect(employmentMatches(entry({ lastName: "Lee" }), filter(["acme"], both))).toBe(false);
    expect(employmentMatches(entry({ phone: "3125550142" }), filter(["acme"], both))).toBe(false);
    expect(employmentMatches(entry({ companyId: "beta" }), filter(["acme"], both))).toBe(false);
  });

  it("views a record as matching needs it: company, normalized names and phone", () => {
    const view = entry({ firstName: "ＺＯË", lastName: "O'Neil", phone: "+1 212 555 0142" });
    expect(view).toEqual({ companyId: "acme", firstName: "zoë", lastName: "o'neil", phone: "2125550142" });
    const bare = entry({ firstName: null, lastName: null, phone: "555-0142" });
    expect(bare).toEqual({ companyId: "acme", firstName: null, lastName: null, phone: null });
  });
});

describe("compareByCreated", () => {
  const at = (dateTime: string, id: string) => ({ createdKey: instantKey(dateTime), id });

  it("orders by instant, not by the text of the date-time", () => {
    const early = at("2024-01-01T10:00:00+02:00", "b");
    const late = at("2024-01-01T09:00:00Z", "a");
    expect(compareByCreated(early, late)).toBeLessThan(0);
    expect(compareByCreated(late, early)).toBeGreaterThan(0);
  });

  it("orders sub-millisecond digits, and equal instants by id (plain string order)", () => {
    expect(
      compareByCreated(at("2024-01-01T00:00:00.0001Z", "a"), at("2024-01-01T00:00:00.00009Z", "b")),
    ).toBe(1);
    expect(compareByCreated(at("2024-01-01T00:00:00Z", "b"), at("2024-01-01T02:00:00.000+02:00", "a"))).toBe(
      1,
    );
    expect(compareByCreated(at("2024-01-01T00:00:00Z", "B"), at("2024-01-01T00:00:00Z", "a"))).toBe(-1);
    expect(compareByCreated(at("2024-01-01T00:00:00Z", "a"), at("2024-01-01T00:00:00.0Z", "a"))).toBe(0);
  });

  it("is a total order consistent with (instant, id)", () => {
    const item = fc.record({
      ms: fc.integer({ min: 0, max: 5 }),
      id: fc.constantFrom("a", "b", "A", "0"),
    });
    fc.assert(
      fc.property(item, item, ({ ms: ma, id: ia }, { ms: mb, id: ib }) => {
        const a = { createdKey: instantKey(new Date(ma).toISOString()), id: ia };
        const b = { createdKey: instantKey(new Date(mb).toISOString()), id: ib };
        const expected = ma !== mb ? Math.sign(ma - mb) : ia === ib ? 0 : ia < ib ? -1 : 1;
        expect(compareByCreated(a, b)).toBe(expected);
        expect(compareByCreated(b, a)).toBe(-expected || 0);
      }),
    );
  });
});

describe("inCreatedRange", () => {
  const key = (dateTime: string) => instantKey(dateTime);
  const noon = key("2024-01-01T12:00:00Z");

  it("keeps everything without bounds", () => {
    expect(inCreatedRange(noon, {})).toBe(true);
  });

  it("includes from and excludes before, at the same instant in another offset", () => {
    expect(inCreatedRange(noon, { from: key("2024-01-01T14:00:00+02:00") })).toBe(true);
    expect(inCreatedRange(noon, { before: key("2024-01-01T07:00:00-05:00") })).toBe(false);
    expect(inCreatedRange(noon, { before: key("2024-01-01T12:00:00.000000001Z") })).toBe(true);
    expect(inCreatedRange(noon, { from: key("2024-01-01T12:00:00.000000001Z") })).toBe(false);
  });

  it("keeps nothing when before is not after from", () => {
    for (const [from, before] of [
      ["2024-01-01T12:00:00Z", "2024-01-01T12:00:00Z"],
      ["2024-01-01T12:00:00Z", "2024-01-01T11:00:00Z"],
    ] as const) {
      for (const at of ["2024-01-01T11:00:00Z", "2024-01-01T12:00:00Z", "2024-01-01T13:00:00Z"]) {
        expect(inCreatedRange(key(at), { from: key(from), before: key(before) })).toBe(false);
      }
    }
  });
});

describe("order keys", () => {
  const uuid = fc.uuid().map((id) => id.toLowerCase());
  const instant = fc
    .date({
      min: new Date("0001-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59Z"),
      noInvalidDate: true,
    })
    .chain((date) =>
      fc
        .integer({ min: 0, max: 999_999 })
        .map((extra) => `${date.toISOString().slice(0, 23)}${String(extra).padStart(6, "0")}Z`),
    );

  it("sort as compareByCreated does, and give back their instant and id", () => {
    fc.assert(
      fc.property(instant, uuid, instant, uuid, (ta, ia, tb, ib) => {
        const a = { createdKey: instantKey(ta), id: ia };
        const b = { createdKey: instantKey(tb), id: ib };
        const [ka, kb] = [orderKey(a.createdKey, a.id), orderKey(b.createdKey, b.id)];
        expect(Math.sign(ka < kb ? -1 : ka > kb ? 1 : 0)).toBe(Math.sign(compareByCreated(a, b)));
        expect(orderKeyParts(ka)).toEqual(a);
      }),
    );
  });

  it("bound a created range as inCreatedRange does", () => {
    fc.assert(
      fc.property(instant, uuid, fc.option(instant), fc.option(instant), (at, id, from, before) => {
        const range = {
          ...(from === null ? {} : { from: instantKey(from) }),
          ...(before === null ? {} : { before: instantKey(before) }),
        };
        const createdKey = instantKey(at);
        expect(inOrderRange(orderKey(createdKey, id), orderRange(range))).toBe(
          inCreatedRange(createdKey, range),
        );
      }),
    );
  });
});
