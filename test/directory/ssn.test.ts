import fc from "fast-check";
import { findFullSsn, looksLikeFullSsn } from "../../lib/directory/ssn.js";

describe("looksLikeFullSsn", () => {
  it.each([
    "123-45-6789",
    "SSN 123-45-6789",
    "ssn:123-45-6789.",
    "x123-45-6789y",
    "123456789",
    "id 123456789 here",
    "PR-123456789",
    "123456789-",
    "１２３－４５－６７８９", // full-width digits and hyphen
    "１２３４５６７８９",
    "555-01-4200 and 2125550142",
  ])("refuses %j", (value) => {
    expect(looksLikeFullSsn(value)).toBe(true);
  });

  it.each([
    "2125550142", // a normalized phone: 10 digits
    "12125550142", // 11-digit phone
    "+12125550142",
    "212-555-0142",
    "(212) 555-0142",
    "1-212-555-0142",
    "+1 212 555 0142",
    "212.555.0142",
    "12345678", // 8 digits
    "1234567890123", // longer runs are not SSNs
    "1123-45-67890", // ddd-dd-dddd inside longer digit runs
    "123-45-67890",
    "1123-45-6789",
    "12-345-6789", // other grouping
    "123 45 6789", // spaces are not the SSN separator here
    "78701-1234", // ZIP+4
    "PR-000123",
    "HHX0004567",
    "1980-02-29",
    "",
  ])("lets %j through", (value) => {
    expect(looksLikeFullSsn(value)).toBe(false);
  });

  it("never flags a valid phone in any punctuation", () => {
    const digit = fc.constantFrom(..."0123456789");
    const phone = fc.tuple(fc.boolean(), fc.array(digit, { minLength: 10, maxLength: 10 })).map(([cc, d]) => {
      const s = d.join("");
      return { cc, a: s.slice(0, 3), e: s.slice(3, 6), l: s.slice(6) };
    });
    const formats = [
      ({ a, e, l }: { a: string; e: string; l: string }) => `${a}${e}${l}`,
      ({ a, e, l }: { a: string; e: string; l: string }) => `${a}-${e}-${l}`,
      ({ a, e, l }: { a: string; e: string; l: string }) => `(${a}) ${e}-${l}`,
      ({ a, e, l }: { a: string; e: string; l: string }) => `${a}.${e}.${l}`,
      ({ a, e, l }: { a: string; e: string; l: string }) => `${a} ${e} ${l}`,
    ];
    fc.assert(
      fc.property(
        phone,
        fc.constantFrom(...formats),
        fc.constantFrom("", "1", "+1 ", "1-"),
        (p, format, prefix) => {
          expect(looksLikeFullSsn(`${p.cc ? prefix : ""}${format(p)}`)).toBe(false);
        },
      ),
    );
  });

  it("flags every 9-digit run bounded by non-digits", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."abc -.") }),
        fc.stringMatching(/^\d{9}$/),
        fc.string({ unit: fc.constantFrom(..."abc -.") }),
        (before, ssn, after) => {
          expect(looksLikeFullSsn(`${before}${ssn}${after}`)).toBe(true);
        },
      ),
    );
  });
});

describe("findFullSsn", () => {
  it("returns the path of the first offending string", () => {
    const record = {
      id: "x",
      contact: { phone: "2125550142", address: { line1: "1 Main", line2: "ref 123-45-6789" } },
      externalIds: [{ system_id: "ok" }, { system_id: "987654321" }],
    };
    expect(findFullSsn(record)).toEqual(["contact", "address", "line2"]);
    expect(findFullSsn({ externalIds: record.externalIds })).toEqual(["externalIds", 1, "system_id"]);
  });

  it("skips uuid and date-time fields, whose formats hold 9-digit runs", () => {
    expect(
      findFullSsn({
        id: "3f2504e0-4f89-41d3-9a0c-abc123456789",
        personId: "3f2504e0-4f89-41d3-9a0c-abc123456789",
        createdAt: "2024-01-01T00:00:00.123456789Z",
        membership: { invitation: { expiresAt: "2024-01-01T00:00:00.123456789Z" } },
      }),
    ).toBeUndefined();
  });

  it("returns undefined for a clean record", () => {
    expect(findFullSsn({ a: ["2125550142", null, 12], b: { c: "12125550142" } })).toBeUndefined();
  });
});
